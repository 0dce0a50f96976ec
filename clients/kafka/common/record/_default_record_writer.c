/* The producer's record-writing step in C: one v2 record (DefaultRecord.write_to's bytes) appended to a batch.
 *
 * write_record(out, offset_delta, timestamp_delta, key, value, tail, room) appends to the bytearray `out`:
 *   length varint, attributes 0, timestamp delta (zig-zag varlong), offset delta (zig-zag varint),
 *   key length + key (-1 when None), value length + value (-1 when None), then `tail` (the encoded header count
 *   and headers, made in Python; None for a record without headers, written as the count 0).
 * It returns the bytes written, or -1 without writing anything when they would be more than `room`
 * (MemoryRecordsBuilder.append_if_room's check). It returns None, writing nothing, for deltas outside an int
 * (offset) or a long (timestamp), for fields over 1 GB and for an `out` that is not a bytearray: the caller then
 * takes the Python path, which wraps such values as Java does.
 *
 * Optional: built by setup.py where a compiler is found; default_record.py falls back to its Python writer
 * (and KAFKA_PORT_PURE_PYTHON_WRITER=1 forces the fallback). The tests compare both byte for byte.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

static inline Py_ssize_t
uvarint_size(uint64_t u)
{
    Py_ssize_t n = 1;
    while (u >= 0x80) {
        u >>= 7;
        n++;
    }
    return n;
}

static inline char *
put_uvarint(char *p, uint64_t u)
{
    while (u >= 0x80) {
        *p++ = (char)((u & 0x7F) | 0x80);
        u >>= 7;
    }
    *p++ = (char)u;
    return p;
}

static inline uint64_t
zigzag32(int32_t v)
{
    return (uint32_t)(((uint32_t)v << 1) ^ (uint32_t)(v >> 31));
}

static inline uint64_t
zigzag64(int64_t v)
{
    return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

/* A key, value or tail: its bytes and length (-1 for None); `view` is released by the caller when used. */
typedef struct {
    const char *buf;
    Py_ssize_t len;
    Py_buffer view;
    int has_view;
} field_t;

static int
get_field(PyObject *obj, field_t *f)
{
    f->has_view = 0;
    if (obj == Py_None) {
        f->buf = NULL;
        f->len = -1;
        return 0;
    }
    if (PyBytes_CheckExact(obj)) {
        f->buf = PyBytes_AS_STRING(obj);
        f->len = PyBytes_GET_SIZE(obj);
        return 0;
    }
    if (PyObject_GetBuffer(obj, &f->view, PyBUF_SIMPLE) < 0) {
        return -1;
    }
    f->has_view = 1;
    f->buf = (const char *)f->view.buf;
    f->len = f->view.len;
    return 0;
}

static void
release_field(field_t *f)
{
    if (f->has_view) {
        PyBuffer_Release(&f->view);
        f->has_view = 0;
    }
}

static PyObject *
write_record(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 7) {
        PyErr_SetString(PyExc_TypeError, "write_record takes 7 arguments");
        return NULL;
    }
    PyObject *out = args[0];
    if (!PyByteArray_CheckExact(out)) {
        Py_RETURN_NONE; /* the Python writer appends to anything that takes += */
    }
    int overflow = 0;
    long long offset_delta = PyLong_AsLongLongAndOverflow(args[1], &overflow);
    if (offset_delta == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (overflow || offset_delta < INT32_MIN || offset_delta > INT32_MAX) {
        Py_RETURN_NONE;
    }
    long long timestamp_delta = PyLong_AsLongLongAndOverflow(args[2], &overflow);
    if (timestamp_delta == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (overflow) {
        Py_RETURN_NONE;
    }
    long long room_arg = PyLong_AsLongLongAndOverflow(args[6], &overflow);
    if (room_arg == -1 && PyErr_Occurred()) {
        return NULL;
    }
    /* No record is longer than PY_SSIZE_T_MAX: a larger room is as good as unlimited. */
    Py_ssize_t room = overflow > 0 || room_arg > PY_SSIZE_T_MAX ? PY_SSIZE_T_MAX
                      : overflow < 0 || room_arg < 0          ? -1
                                                              : (Py_ssize_t)room_arg;
    field_t key, value, tail;
    if (get_field(args[3], &key) < 0) {
        return NULL;
    }
    if (get_field(args[4], &value) < 0) {
        release_field(&key);
        return NULL;
    }
    if (get_field(args[5], &tail) < 0) {
        release_field(&key);
        release_field(&value);
        return NULL;
    }
    PyObject *result = NULL;
    if (key.len > INT32_MAX / 2 || value.len > INT32_MAX / 2 || tail.len > INT32_MAX / 2) {
        /* Records this large are left to the Python writer (which wraps their lengths as Java's int would). */
        result = Py_NewRef(Py_None);
        goto done;
    }
    uint64_t ts_u = zigzag64((int64_t)timestamp_delta);
    uint64_t off_u = zigzag32((int32_t)offset_delta);
    uint64_t key_u = zigzag32((int32_t)key.len);
    uint64_t value_u = zigzag32((int32_t)value.len);
    Py_ssize_t body = 1 + uvarint_size(ts_u) + uvarint_size(off_u) + uvarint_size(key_u) + uvarint_size(value_u) +
                      (key.len > 0 ? key.len : 0) + (value.len > 0 ? value.len : 0) + (tail.len >= 0 ? tail.len : 1);
    if (body > INT32_MAX) {
        result = Py_NewRef(Py_None);
        goto done;
    }
    uint64_t body_u = zigzag32((int32_t)body);
    Py_ssize_t total = uvarint_size(body_u) + body;
    if (total > room) {
        result = PyLong_FromLong(-1);
        goto done;
    }
    Py_ssize_t start = PyByteArray_GET_SIZE(out);
    if (PyByteArray_Resize(out, start + total) < 0) {
        goto done;
    }
    char *p = PyByteArray_AS_STRING(out) + start;
    p = put_uvarint(p, body_u);
    *p++ = 0;
    p = put_uvarint(p, ts_u);
    p = put_uvarint(p, off_u);
    p = put_uvarint(p, key_u);
    if (key.len > 0) {
        memcpy(p, key.buf, (size_t)key.len);
        p += key.len;
    }
    p = put_uvarint(p, value_u);
    if (value.len > 0) {
        memcpy(p, value.buf, (size_t)value.len);
        p += value.len;
    }
    if (tail.len >= 0) {
        if (tail.len > 0) {
            memcpy(p, tail.buf, (size_t)tail.len);
        }
    }
    else {
        *p = 0;
    }
    result = PyLong_FromSsize_t(total);
done:
    release_field(&key);
    release_field(&value);
    release_field(&tail);
    return result;
}

static PyMethodDef methods[] = {
    {"write_record", (PyCFunction)(void (*)(void))write_record, METH_FASTCALL,
     "Appends one v2 record to a bytearray if it fits `room`; returns its size, -1 if not, None if out of range."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "_default_record_writer", "The producer's v2 record writer in C (optional).", -1, methods,
};

PyMODINIT_FUNC
PyInit__default_record_writer(void)
{
    return PyModule_Create(&module_def);
}
