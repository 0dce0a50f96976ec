/* The compiled inline loop of fetched_batch_decoder.decode_default_batch (optional, see that module).
 *
 * PORT: no Java counterpart. decode_records(data, pos, count, base_offset, timestamp_base, log_append_time, topic,
 * partition, timestamp_type, leader_epoch, cls, records) decodes up to `count` v2 records of the record section
 * `data` (bytes, or any contiguous buffer such as a memoryview of the fetch response) from `pos`, appending a ConsumerRecord (class `cls`, its slots filled directly) for each, and stops at the
 * first record it does not expect: headers, a varint longer than four bytes for a size or delta (nine for the
 * timestamp delta), a size past the section's end, a timestamp out of the int64 range, trailing bytes. It returns
 * (position, records decoded); the caller reads the unexpected record with the record layer's decoder, which
 * returns it or raises the error the record-at-a-time path raises, and calls again for the rest. It never raises
 * for the data it is given: whatever it does not decode is left to the caller.
 *
 * The records it makes refer only to strings, ints, bytes, None and the timestamp type, so no reference cycle can
 * run through them: they are taken off the cycle collector's lists (PyObject_GC_UnTrack) and freed by reference
 * counting alone. Otherwise every collection walked the fetched records that the consumer still buffers (a
 * fetch's worth, some ten thousand at 100 B), and with them each decoded batch cost about twice as much. Headers
 * added to a record later are an ordinary tracked object it refers to.
 *
 * decode_columns(...) appends a whole record section of common records straight to Arrow column buffers, with no
 * record object per row (the consumer's columnar fetch, fetched_batch_decoder.RecordColumns, which the Spark source
 * reads).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

enum {
    S_TOPIC, S_PARTITION, S_OFFSET, S_TIMESTAMP, S_TIMESTAMP_TYPE, S_KEY_SIZE, S_VALUE_SIZE, S_HEADERS, S_KEY,
    S_VALUE, S_LEADER_EPOCH, N_SLOTS
};

static const char *const slot_names[N_SLOTS] = {
    "_topic", "_partition", "_offset", "_timestamp", "_timestamp_type", "_serialized_key_size",
    "_serialized_value_size", "_headers", "_key", "_value", "_leader_epoch",
};

/* The class whose slot offsets are cached (a borrowed-then-owned reference) and those offsets. */
static PyObject *cached_cls = NULL;
static Py_ssize_t slot_offsets[N_SLOTS];

static int load_slots(PyObject *cls) {
    if (cls == cached_cls) {
        return 0;
    }
    if (!PyType_Check(cls)) {
        PyErr_SetString(PyExc_TypeError, "cls must be a class");
        return -1;
    }
    Py_ssize_t offsets[N_SLOTS];
    for (int i = 0; i < N_SLOTS; i++) {
        PyObject *descr = PyObject_GetAttrString(cls, slot_names[i]);
        if (descr == NULL) {
            return -1;
        }
        if (Py_TYPE(descr) != &PyMemberDescr_Type) {
            Py_DECREF(descr);
            PyErr_Format(PyExc_TypeError, "%s is not a slot", slot_names[i]);
            return -1;
        }
        PyMemberDef *member = ((PyMemberDescrObject *)descr)->d_member;
        if (member->type != T_OBJECT_EX) {
            Py_DECREF(descr);
            PyErr_Format(PyExc_TypeError, "%s is not an object slot", slot_names[i]);
            return -1;
        }
        offsets[i] = member->offset;
        Py_DECREF(descr);
    }
    memcpy(slot_offsets, offsets, sizeof offsets);
    Py_INCREF(cls);
    Py_XSETREF(cached_cls, cls);
    return 0;
}

static inline void set_slot(PyObject *obj, int slot, PyObject *value) {
    /* A freshly allocated object: the slot is empty (NULL); the reference is stolen. */
    *(PyObject **)((char *)obj + slot_offsets[slot]) = value;
}

static inline void set_slot_borrowed(PyObject *obj, int slot, PyObject *value) {
    Py_INCREF(value);
    set_slot(obj, slot, value);
}

/* An unsigned varint of at most `max_bytes` bytes at *p (below end); 0 when it is longer or the data ends. */
static inline int read_uvarint(const unsigned char **p, const unsigned char *end, int max_bytes, uint64_t *out) {
    uint64_t value = 0;
    const unsigned char *q = *p;
    for (int i = 0; i < max_bytes; i++) {
        if (q >= end) {
            return 0;
        }
        unsigned char b = *q++;
        value |= (uint64_t)(b & 0x7F) << (7 * i);
        if (b < 0x80) {
            *p = q;
            *out = value;
            return 1;
        }
    }
    return 0;
}

static inline int64_t zigzag(uint64_t u) { return (int64_t)(u >> 1) ^ -(int64_t)(u & 1); }

/* A zig-zag varint of at most four bytes (|value| < 2^27): sizes and the offset delta. */
static inline int read_small_varint(const unsigned char **p, const unsigned char *end, int64_t *out) {
    uint64_t u;
    if (!read_uvarint(p, end, 4, &u)) {
        return 0;
    }
    *out = zigzag(u);
    return 1;
}

static PyObject *decode_records_in(const unsigned char *start, Py_ssize_t data_size, PyObject *const *args);

static PyObject *decode_records(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 12) {
        PyErr_SetString(PyExc_TypeError, "decode_records takes 12 arguments");
        return NULL;
    }
    PyObject *data_obj = args[0];
    if (PyBytes_Check(data_obj)) {
        return decode_records_in((const unsigned char *)PyBytes_AS_STRING(data_obj), PyBytes_GET_SIZE(data_obj), args);
    }
    /* Any other contiguous buffer (the record section as a memoryview of the response, read where it lies): held
     * for the loop, which copies what it keeps. */
    Py_buffer view;
    if (PyObject_GetBuffer(data_obj, &view, PyBUF_SIMPLE) < 0) {
        return NULL;
    }
    PyObject *result = decode_records_in((const unsigned char *)view.buf, view.len, args);
    PyBuffer_Release(&view);
    return result;
}

static PyObject *decode_records_in(const unsigned char *start, Py_ssize_t data_size, PyObject *const *args) {
    Py_ssize_t pos = PyLong_AsSsize_t(args[1]);
    Py_ssize_t count = PyLong_AsSsize_t(args[2]);
    long long base_offset = PyLong_AsLongLong(args[3]);
    long long timestamp_base = PyLong_AsLongLong(args[4]);
    if (PyErr_Occurred()) {
        return NULL;
    }
    PyObject *log_append_time = args[5];
    PyObject *topic = args[6], *partition = args[7], *timestamp_type = args[8], *leader_epoch = args[9];
    PyObject *cls = args[10], *records = args[11];
    if (!PyList_Check(records)) {
        PyErr_SetString(PyExc_TypeError, "records must be a list");
        return NULL;
    }
    if (load_slots(cls) < 0) {
        return NULL;
    }
    PyTypeObject *type = (PyTypeObject *)cls;
    const unsigned char *limit = start + data_size;
    if (pos < 0 || pos > data_size) {
        return Py_BuildValue("(nn)", pos, (Py_ssize_t)0);
    }
    const unsigned char *p = start + pos;
    Py_ssize_t decoded = 0;
    while (decoded < count) {
        const unsigned char *q = p;
        int64_t size, offset_delta, key_size, value_size;
        uint64_t utimestamp;
        if (!read_small_varint(&q, limit, &size) || size < 1 || size > limit - q) {
            break;
        }
        const unsigned char *end = q + size;
        q += 1; /* attributes, unused */
        if (!read_uvarint(&q, limit, 9, &utimestamp)) {
            break;
        }
        int64_t timestamp_delta = zigzag(utimestamp);
        long long timestamp;
        if (__builtin_add_overflow(timestamp_base, (long long)timestamp_delta, &timestamp)) {
            break;
        }
        if (!read_small_varint(&q, limit, &offset_delta) || !read_small_varint(&q, limit, &key_size)) {
            break;
        }
        const unsigned char *key_start = q;
        if (key_size >= 0) {
            if (q > end || key_size > end - q) {
                break;
            }
            q += key_size;
        }
        if (!read_small_varint(&q, limit, &value_size)) {
            break;
        }
        const unsigned char *value_start = q;
        if (value_size >= 0) {
            if (q > end || value_size > end - q) {
                break;
            }
            q += value_size;
        }
        /* Without headers, their zero count is the record's last byte. */
        if (q + 1 != end || *q != 0) {
            break;
        }
        PyObject *record = type->tp_alloc(type, 0);
        if (record == NULL) {
            return NULL;
        }
        PyObject *key = key_size < 0 ? Py_NewRef(Py_None)
                                     : PyBytes_FromStringAndSize((const char *)key_start, (Py_ssize_t)key_size);
        PyObject *value = value_size < 0
                              ? Py_NewRef(Py_None)
                              : PyBytes_FromStringAndSize((const char *)value_start, (Py_ssize_t)value_size);
        PyObject *offset = PyLong_FromLongLong(base_offset + offset_delta);
        PyObject *timestamp_obj = log_append_time == Py_None ? PyLong_FromLongLong(timestamp) : Py_NewRef(log_append_time);
        PyObject *key_size_obj = PyLong_FromLongLong(key_size < 0 ? -1 : key_size);
        PyObject *value_size_obj = PyLong_FromLongLong(value_size < 0 ? -1 : value_size);
        /* Each slot takes its reference (NULL ones stay unset and the record is dropped below). */
        set_slot_borrowed(record, S_TOPIC, topic);
        set_slot_borrowed(record, S_PARTITION, partition);
        set_slot(record, S_OFFSET, offset);
        set_slot(record, S_TIMESTAMP, timestamp_obj);
        set_slot_borrowed(record, S_TIMESTAMP_TYPE, timestamp_type);
        set_slot(record, S_KEY_SIZE, key_size_obj);
        set_slot(record, S_VALUE_SIZE, value_size_obj);
        set_slot_borrowed(record, S_HEADERS, Py_None);
        set_slot(record, S_KEY, key);
        set_slot(record, S_VALUE, value);
        set_slot_borrowed(record, S_LEADER_EPOCH, leader_epoch);
        if (key == NULL || value == NULL || offset == NULL || timestamp_obj == NULL || key_size_obj == NULL ||
            value_size_obj == NULL) {
            Py_DECREF(record);
            return NULL;
        }
        /* Its references are all to strings, ints, bytes, None and the timestamp type: it cannot be part of a
         * reference cycle, so the cycle collector need not follow it (see the module's notes). */
        PyObject_GC_UnTrack(record);
        int appended = PyList_Append(records, record);
        Py_DECREF(record);
        if (appended < 0) {
            return NULL;
        }
        p = end;
        decoded++;
    }
    return Py_BuildValue("(nn)", (Py_ssize_t)(p - start), decoded);
}


/* Grows a bytearray by `n` bytes; the new bytes' address, or NULL with an exception. */
static char *bytearray_extend(PyObject *array, Py_ssize_t n) {
    Py_ssize_t size = PyByteArray_GET_SIZE(array);
    if (PyByteArray_Resize(array, size + n) < 0) {
        return NULL;
    }
    return PyByteArray_AS_STRING(array) + size;
}

/* One record of a v2 record section as decode_columns reads it. */
typedef struct {
    int64_t offset, timestamp, key_size, value_size;
    const unsigned char *key, *value, *end;
} column_record;

/* Reads the common record at *p (no headers, short varints, sizes inside the record); 0 when it is not one. */
static inline int read_column_record(const unsigned char *p, const unsigned char *limit, long long base_offset,
                                     long long timestamp_base, column_record *r) {
    const unsigned char *q = p;
    int64_t size, offset_delta;
    uint64_t utimestamp;
    if (!read_small_varint(&q, limit, &size) || size < 1 || size > limit - q) {
        return 0;
    }
    const unsigned char *end = q + size;
    q += 1; /* attributes, unused */
    if (!read_uvarint(&q, limit, 9, &utimestamp)) {
        return 0;
    }
    long long timestamp;
    if (__builtin_add_overflow(timestamp_base, (long long)zigzag(utimestamp), &timestamp)) {
        return 0;
    }
    if (!read_small_varint(&q, limit, &offset_delta) || !read_small_varint(&q, limit, &r->key_size)) {
        return 0;
    }
    r->key = q;
    if (r->key_size >= 0) {
        if (q > end || r->key_size > end - q) {
            return 0;
        }
        q += r->key_size;
    }
    if (!read_small_varint(&q, limit, &r->value_size)) {
        return 0;
    }
    r->value = q;
    if (r->value_size >= 0) {
        if (q > end || r->value_size > end - q) {
            return 0;
        }
        q += r->value_size;
    }
    if (q + 1 != end || *q != 0) {
        return 0;
    }
    r->offset = base_offset + offset_delta;
    r->timestamp = timestamp;
    r->end = end;
    return 1;
}

/* Appends one binary value (NULL: null) as row `row` of a column (validity bitmap, int32 offsets, data). */
static int append_binary(PyObject *validity, PyObject *offsets, PyObject *data, Py_ssize_t row,
                         const unsigned char *value, int64_t size) {
    Py_ssize_t bitmap_size = (row + 8) / 8;
    if (PyByteArray_GET_SIZE(validity) < bitmap_size) {
        char *b = bytearray_extend(validity, bitmap_size - PyByteArray_GET_SIZE(validity));
        if (b == NULL) {
            return -1;
        }
        *b = 0;
    }
    Py_ssize_t data_size = PyByteArray_GET_SIZE(data);
    if (size >= 0) {
        if (size > INT32_MAX - data_size) {
            PyErr_SetString(PyExc_OverflowError, "a binary column above 2 GiB");
            return -1;
        }
        char *d = bytearray_extend(data, (Py_ssize_t)size);
        if (d == NULL) {
            return -1;
        }
        memcpy(d, value, (size_t)size);
        PyByteArray_AS_STRING(validity)[row >> 3] |= (char)(1 << (row & 7));
        data_size += (Py_ssize_t)size;
    }
    char *o = bytearray_extend(offsets, 4);
    if (o == NULL) {
        return -1;
    }
    int32_t end_offset = (int32_t)data_size;
    memcpy(o, &end_offset, 4);
    return 0;
}

/* decode_columns(data, count, base_offset, timestamp_base, log_append_time, timestamp_type_id, min_offset, buffers):
 * appends the records of a whole v2 record section from `min_offset` on to the columns of `buffers` (the nine
 * bytearrays of fetched_batch_decoder.RecordColumns), and returns how many it appended; -1, with nothing appended,
 * when the section is not `count` common records filling it exactly (the caller then decodes it record by
 * record). */
static PyObject *decode_columns(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 8 || !PyBytes_Check(args[0]) || !PyTuple_Check(args[7]) || PyTuple_GET_SIZE(args[7]) != 9) {
        PyErr_SetString(PyExc_TypeError, "decode_columns(data: bytes, count, base_offset, timestamp_base, "
                                         "log_append_time, timestamp_type_id, min_offset, buffers: tuple of 9)");
        return NULL;
    }
    Py_ssize_t count = PyLong_AsSsize_t(args[1]);
    long long base_offset = PyLong_AsLongLong(args[2]);
    long long timestamp_base = PyLong_AsLongLong(args[3]);
    long long log_append_time = args[4] == Py_None ? 0 : PyLong_AsLongLong(args[4]);
    long timestamp_type_id = PyLong_AsLong(args[5]);
    long long min_offset = PyLong_AsLongLong(args[6]);
    if (PyErr_Occurred()) {
        return NULL;
    }
    int use_log_append_time = args[4] != Py_None;
    PyObject *buffers[9];
    for (int i = 0; i < 9; i++) {
        buffers[i] = PyTuple_GET_ITEM(args[7], i);
        if (!PyByteArray_CheckExact(buffers[i])) {
            PyErr_SetString(PyExc_TypeError, "the column buffers must be bytearrays");
            return NULL;
        }
    }
    PyObject *offsets = buffers[0], *timestamps = buffers[1], *timestamp_types = buffers[2];
    const unsigned char *start = (const unsigned char *)PyBytes_AS_STRING(args[0]);
    const unsigned char *limit = start + PyBytes_GET_SIZE(args[0]);
    /* Records before min_offset are dropped only when the batch begins before it (as the record path does). */
    int filter = base_offset < min_offset;
    /* First pass: the whole section must be common records; nothing is appended otherwise. */
    const unsigned char *p = start;
    Py_ssize_t rows = 0;
    column_record r;
    for (Py_ssize_t i = 0; i < count; i++) {
        if (!read_column_record(p, limit, base_offset, use_log_append_time ? 0 : timestamp_base, &r)) {
            return PyLong_FromLong(-1);
        }
        if (!filter || r.offset >= min_offset) {
            rows++;
        }
        p = r.end;
    }
    if (p != limit) {
        return PyLong_FromLong(-1);
    }
    Py_ssize_t row = PyByteArray_GET_SIZE(offsets) / 8;
    char *o = bytearray_extend(offsets, rows * 8);
    char *t = o == NULL ? NULL : bytearray_extend(timestamps, rows * 8);
    char *tt = t == NULL ? NULL : bytearray_extend(timestamp_types, rows);
    if (tt == NULL) {
        return NULL;
    }
    memset(tt, (int)(signed char)timestamp_type_id, (size_t)rows);
    p = start;
    for (Py_ssize_t i = 0; i < count; i++) {
        read_column_record(p, limit, base_offset, use_log_append_time ? 0 : timestamp_base, &r);
        p = r.end;
        if (filter && r.offset < min_offset) {
            continue;
        }
        int64_t offset = r.offset, timestamp = use_log_append_time ? log_append_time : r.timestamp;
        /* The bytearrays may have moved: addressed again for every row. */
        memcpy(PyByteArray_AS_STRING(offsets) + row * 8, &offset, 8);
        memcpy(PyByteArray_AS_STRING(timestamps) + row * 8, &timestamp, 8);
        if (append_binary(buffers[3], buffers[4], buffers[5], row, r.key_size < 0 ? NULL : r.key, r.key_size) < 0 ||
            append_binary(buffers[6], buffers[7], buffers[8], row, r.value_size < 0 ? NULL : r.value,
                          r.value_size) < 0) {
            return NULL;
        }
        row++;
    }
    return PyLong_FromSsize_t(rows);
}

static PyMethodDef methods[] = {
    {"decode_records", (PyCFunction)(void (*)(void))decode_records, METH_FASTCALL,
     "Decodes the common v2 records of a record section into ConsumerRecords; returns (position, count)."},
    {"decode_columns", (PyCFunction)(void (*)(void))decode_columns, METH_FASTCALL,
     "Appends the records of a whole v2 record section to Arrow column buffers; returns how many, or -1."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_fetched_batch_decoder", "The compiled record loop of fetched_batch_decoder.", -1,
    methods,
};

PyMODINIT_FUNC PyInit__fetched_batch_decoder(void) { return PyModule_Create(&module); }
