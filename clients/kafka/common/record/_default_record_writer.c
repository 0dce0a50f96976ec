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
 * append_to_batch(batch, timestamp, key, value, headers, callback, now) is the producer's append to a partition's
 * open batch (producer_batch.append_to_batch): for a record without headers going to an open, uncompressed v2
 * ProducerBatch that already has records, it writes the record as write_record does, sets the builder's counters as
 * MemoryRecordsBuilder.append_if_room_sized does and the batch's as ProducerBatch.try_append does, makes the record's
 * FutureRecordMetadata (its slots set directly), and returns (future, whether the batch is now full), or None when
 * the record does not fit. Every other case goes to the Python function given to register_producer_batch. It keeps a
 * weak reference to the batch it appended to last, with what cannot change while that batch lives (its builder, future
 * and lists, the builder's base offset and timestamp, header size and write limit), read again for any other batch.
 *
 * set_record_slots(record, topic, partition, key, value, timestamp, headers) sets a ProducerRecord's six slots in one
 * call (the class refuses attribute assignment; its slots' setters cost a call each); new_producer_record(topic, value)
 * makes ProducerRecord(topic, value) without the call of its __init__.
 *
 * append_to_last_batch(dq, timestamp, key, value, headers, callback, now) is append_to_batch to a partition deque's last
 * batch answered with the accumulator's RecordAppendResult (the class given to register_append_result).
 *
 * append_to_partition(accumulator, topic, partition, timestamp, key, value, headers, callbacks, now, cluster) is
 * RecordAccumulator.append's common case (the partition's deque exists and its last batch takes the record): the same
 * count of appends in progress, partition told to the callbacks, deque lock, checks, append_to_last_batch and sticky
 * partition bookkeeping, answering None (having changed nothing but the callbacks' partition) for every other case.
 *
 * send_common(producer, record, callback) is KafkaProducer.send's common case (a record without key, partition or
 * headers, no interceptors, byte-array serializers, the built-in partitioner, the topic's partitions known): the same
 * steps, with append_to_partition's append; None when send's Python is to run.
 *
 * new_append_callbacks(user_callback, interceptors, topic, record_partition) makes KafkaProducer's per-record
 * AppendCallbacks (the class given to register_append_callbacks) with its six slots set as its __init__ sets them.
 *
 * new_slotted(type, *values) makes an instance of a class given to register_new_slotted(type, names), its slots
 * `names` set to `values` as its __init__ sets them, without the call (the producer perf tool's per-record callback).
 *
 * random_letters_state(rng, size) and random_letters(state) are the producer perf tool's random payload: the bytes of
 * rng.getrandbits(8 * size).to_bytes(size, "little").translate(letters) (each byte b made the letter 65 + b % 26), the
 * same bytes in the same order, from a copy of the Mersenne Twister state of the random.Random `rng` (its public
 * getstate()) kept in a bytearray, which each call advances as getrandbits would advance rng's.
 *
 * Optional: built by setup.py where a compiler is found; default_record.py falls back to its Python writer
 * (and KAFKA_PORT_PURE_PYTHON_WRITER=1 forces the fallback). The tests compare both byte for byte.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#include <limits.h>
#include <time.h>
#include "structmember.h"

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

/* write_fields' outcomes. */
#define WRITE_OK 0
#define WRITE_NO_ROOM 1
#define WRITE_OUT_OF_RANGE 2
#define WRITE_ERROR -1

/* Appends one record's bytes to the bytearray `out` when they fit `room`, setting *total to their size. */
static int
write_fields(PyObject *out, int32_t offset_delta, int64_t timestamp_delta, const field_t *key, const field_t *value,
             const field_t *tail, Py_ssize_t room, Py_ssize_t *total_out)
{
    if (key->len > INT32_MAX / 2 || value->len > INT32_MAX / 2 || tail->len > INT32_MAX / 2) {
        /* Records this large are left to the Python writer (which wraps their lengths as Java's int would). */
        return WRITE_OUT_OF_RANGE;
    }
    uint64_t ts_u = zigzag64(timestamp_delta);
    uint64_t off_u = zigzag32(offset_delta);
    uint64_t key_u = zigzag32((int32_t)key->len);
    uint64_t value_u = zigzag32((int32_t)value->len);
    Py_ssize_t body = 1 + uvarint_size(ts_u) + uvarint_size(off_u) + uvarint_size(key_u) + uvarint_size(value_u) +
                      (key->len > 0 ? key->len : 0) + (value->len > 0 ? value->len : 0) +
                      (tail->len >= 0 ? tail->len : 1);
    if (body > INT32_MAX) {
        return WRITE_OUT_OF_RANGE;
    }
    uint64_t body_u = zigzag32((int32_t)body);
    Py_ssize_t total = uvarint_size(body_u) + body;
    if (total > room) {
        return WRITE_NO_ROOM;
    }
    Py_ssize_t start = PyByteArray_GET_SIZE(out);
    if (PyByteArray_Resize(out, start + total) < 0) {
        return WRITE_ERROR;
    }
    char *p = PyByteArray_AS_STRING(out) + start;
    p = put_uvarint(p, body_u);
    *p++ = 0;
    p = put_uvarint(p, ts_u);
    p = put_uvarint(p, off_u);
    p = put_uvarint(p, key_u);
    if (key->len > 0) {
        memcpy(p, key->buf, (size_t)key->len);
        p += key->len;
    }
    p = put_uvarint(p, value_u);
    if (value->len > 0) {
        memcpy(p, value->buf, (size_t)value->len);
        p += value->len;
    }
    if (tail->len >= 0) {
        if (tail->len > 0) {
            memcpy(p, tail->buf, (size_t)tail->len);
        }
    }
    else {
        *p = 0;
    }
    *total_out = total;
    return WRITE_OK;
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
    Py_ssize_t total;
    int status = write_fields(out, (int32_t)offset_delta, (int64_t)timestamp_delta, &key, &value, &tail, room, &total);
    if (status == WRITE_ERROR) {
        goto done;
    }
    result = status == WRITE_OUT_OF_RANGE ? Py_NewRef(Py_None)
             : status == WRITE_NO_ROOM    ? PyLong_FromLong(-1)
                                          : PyLong_FromSsize_t(total);
done:
    release_field(&key);
    release_field(&value);
    release_field(&tail);
    return result;
}

/* ---- the producer's append to the open batch (ProducerBatch.try_append's common case) ----------------------- */

/* The attribute names read and written (interned once), the Python fallback, FutureRecordMetadata with its slots'
 * offsets, CompressionType.NONE and Time.SYSTEM: given by register_producer_batch. */
static PyObject *s_records_builder, *s_append_stream, *s_num_records, *s_magic, *s_is_control_batch,
    *s_compression_type, *s_last_offset, *s_base_timestamp, *s_batch_header_size, *s_records_size, *s_write_limit,
    *s_base_offset, *s_max_timestamp, *s_offset_of_max_timestamp, *s_produce_future, *s_callbacks, *s_futures,
    *s_record_count, *s_last_appended_bytes, *s_last_append_time;
static PyObject *g_fallback, *g_future_type, *g_compression_none, *g_time, *g_metadata_type, *s_on_completion;

static const char *const future_slot_names[] = {
    "_result", "_batch_index", "_create_timestamp", "_serialized_key_size", "_serialized_value_size", "_time",
    "_next_record_metadata",
};
#define FUTURE_SLOTS 7
static Py_ssize_t future_offsets[FUTURE_SLOTS];
#define F_RESULT 0
#define F_BATCH_INDEX 1
#define F_CREATE_TIMESTAMP 2
#define F_KEY_SIZE 3
#define F_VALUE_SIZE 4
#define F_NEXT 6

static const char *const metadata_slot_names[] = {
    "_offset", "_timestamp", "_serialized_key_size", "_serialized_value_size", "_topic_partition",
};
#define METADATA_SLOTS 5
static Py_ssize_t metadata_offsets[METADATA_SLOTS];

/* KafkaProducer's AppendCallbacks: without interceptors, its on_completion with a RecordMetadata only passes it on
 * to the user's callback, which fire_callbacks then calls itself. */
#define APPEND_CALLBACKS_SLOTS 6
static const char *const append_callbacks_slot_names[] = {
    "_interceptors", "_user_callback", "_topic", "_record_partition", "_partition", "_topic_partition",
};
static Py_ssize_t append_callbacks_offsets[APPEND_CALLBACKS_SLOTS];
static PyObject *g_unknown_partition;
static PyObject *g_append_callbacks_type;

/* The offsets of a class's slots (T_OBJECT_EX member descriptors), or -1 with an exception set. */
static int
slot_offsets(PyObject *type, const char *const *names, int count, Py_ssize_t *offsets)
{
    if (!PyType_Check(type)) {
        PyErr_SetString(PyExc_TypeError, "a class is expected");
        return -1;
    }
    for (int i = 0; i < count; i++) {
        PyObject *d = PyObject_GetAttrString(type, names[i]);
        if (d == NULL) {
            return -1;
        }
        if (!Py_IS_TYPE(d, &PyMemberDescr_Type) || ((PyMemberDescrObject *)d)->d_member->type != T_OBJECT_EX) {
            Py_DECREF(d);
            PyErr_Format(PyExc_TypeError, "%s is not a slot of %R", names[i], type);
            return -1;
        }
        offsets[i] = ((PyMemberDescrObject *)d)->d_member->offset;
        Py_DECREF(d);
    }
    return 0;
}

/* Registers a slotted class: its slots' offsets into `offsets` and the class into `*registered`, both left as they
 * were when a slot is missing (an exception is set and -1 returned). */
static int
register_slotted(PyObject *type, const char *const *names, int count, Py_ssize_t *offsets, PyObject **registered)
{
    Py_ssize_t found[8];
    assert(count <= 8);
    if (slot_offsets(type, names, count, found) < 0) {
        return -1;
    }
    memcpy(offsets, found, (size_t)count * sizeof *found);
    Py_XSETREF(*registered, Py_NewRef(type));
    return 0;
}

/* The attributes are read and written in the instances' dicts (ProducerBatch and MemoryRecordsBuilder have neither
 * slots nor properties of these names): dict lookups with interned names cost a fraction of PyObject_GetAttr's. */

/* An int attribute as a long long: 0, or 1 when it is missing or not an exact int in range (the caller takes the
 * Python path), or -1 with an exception set. */
static int
get_ll(PyObject *dict, PyObject *name, long long *out)
{
    PyObject *v = PyDict_GetItemWithError(dict, name);
    if (v == NULL) {
        return PyErr_Occurred() ? -1 : 1;
    }
    if (!PyLong_CheckExact(v)) {
        return 1;
    }
    int overflow = 0;
    long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
    if (overflow) {
        return 1;
    }
    if (x == -1 && PyErr_Occurred()) {
        return -1;
    }
    *out = x;
    return 0;
}

static int
set_ll(PyObject *dict, PyObject *name, long long x)
{
    PyObject *v = PyLong_FromLongLong(x);
    if (v == NULL) {
        return -1;
    }
    int r = PyDict_SetItem(dict, name, v);
    Py_DECREF(v);
    return r;
}

/* A borrowed attribute, or NULL (with an exception set only on error). */
static PyObject *
get_obj(PyObject *dict, PyObject *name)
{
    return PyDict_GetItemWithError(dict, name);
}

static PyObject *
intern(const char *name)
{
    return PyUnicode_InternFromString(name);
}

static PyObject *
register_producer_batch(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "register_producer_batch takes 5 arguments");
        return NULL;
    }
    Py_ssize_t offsets[FUTURE_SLOTS], md_offsets[METADATA_SLOTS];
    if (slot_offsets(args[1], future_slot_names, FUTURE_SLOTS, offsets) < 0 ||
        slot_offsets(args[4], metadata_slot_names, METADATA_SLOTS, md_offsets) < 0) {
        return NULL;
    }
    if (s_records_builder == NULL) {
        if (!(s_records_builder = intern("_records_builder")) || !(s_append_stream = intern("_append_stream")) ||
            !(s_num_records = intern("_num_records")) || !(s_magic = intern("_magic")) ||
            !(s_is_control_batch = intern("_is_control_batch")) ||
            !(s_compression_type = intern("_compression_type")) || !(s_last_offset = intern("_last_offset")) ||
            !(s_base_timestamp = intern("_base_timestamp")) ||
            !(s_batch_header_size = intern("_batch_header_size_in_bytes")) ||
            !(s_records_size = intern("_uncompressed_records_size_in_bytes")) ||
            !(s_write_limit = intern("_write_limit")) || !(s_base_offset = intern("_base_offset")) ||
            !(s_max_timestamp = intern("_max_timestamp")) ||
            !(s_offset_of_max_timestamp = intern("_offset_of_max_timestamp")) ||
            !(s_produce_future = intern("produce_future")) || !(s_callbacks = intern("_callbacks")) ||
            !(s_futures = intern("_futures")) || !(s_record_count = intern("record_count")) ||
            !(s_last_appended_bytes = intern("last_appended_bytes")) ||
            !(s_last_append_time = intern("_last_append_time")) || !(s_on_completion = intern("on_completion"))) {
            return NULL;
        }
    }
    memcpy(future_offsets, offsets, sizeof offsets);
    memcpy(metadata_offsets, md_offsets, sizeof md_offsets);
    Py_XSETREF(g_metadata_type, Py_NewRef(args[4]));
    Py_XSETREF(g_fallback, Py_NewRef(args[0]));
    Py_XSETREF(g_future_type, Py_NewRef(args[1]));
    Py_XSETREF(g_compression_none, Py_NewRef(args[2]));
    Py_XSETREF(g_time, Py_NewRef(args[3]));
    Py_RETURN_NONE;
}

static PyObject *
register_append_callbacks(PyObject *module, PyObject *type)
{
    if (g_unknown_partition == NULL && (g_unknown_partition = PyLong_FromLong(-1)) == NULL) {
        return NULL;
    }
    if (register_slotted(type, append_callbacks_slot_names, APPEND_CALLBACKS_SLOTS, append_callbacks_offsets,
                         &g_append_callbacks_type) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

/* new_append_callbacks(user_callback, interceptors, topic, record_partition): an instance of the registered
 * AppendCallbacks class made as its __init__ makes it (the partition not chosen yet, no TopicPartition), without the
 * call of __init__: one is made for every record sent. */
static PyObject *
new_append_callbacks(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "new_append_callbacks takes 4 arguments");
        return NULL;
    }
    if (g_append_callbacks_type == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "no AppendCallbacks class registered");
        return NULL;
    }
    PyTypeObject *type = (PyTypeObject *)g_append_callbacks_type;
    PyObject *callbacks = type->tp_alloc(type, 0);
    if (callbacks == NULL) {
        return NULL;
    }
    PyObject *values[APPEND_CALLBACKS_SLOTS] = {args[1], args[0], args[2], args[3], g_unknown_partition, Py_None};
    for (int i = 0; i < APPEND_CALLBACKS_SLOTS; i++) {
        *(PyObject **)((char *)callbacks + append_callbacks_offsets[i]) = Py_NewRef(values[i]);
    }
    return callbacks;
}

/* A FutureRecordMetadata made without its __init__: the same seven slots, set directly (batch_index is the batch's
 * record_count int before the append, shared). */
static PyObject *
new_future(PyObject *result, PyObject *batch_index, PyObject *create_timestamp, Py_ssize_t key_size,
           Py_ssize_t value_size)
{
    PyTypeObject *type = (PyTypeObject *)g_future_type;
    PyObject *values[FUTURE_SLOTS];
    values[0] = Py_NewRef(result);
    values[1] = Py_NewRef(batch_index);
    values[2] = Py_NewRef(create_timestamp);
    values[3] = PyLong_FromSsize_t(key_size);
    values[4] = PyLong_FromSsize_t(value_size);
    values[5] = Py_NewRef(g_time);
    values[6] = Py_NewRef(Py_None);
    PyObject *future = NULL;
    if (values[1] != NULL && values[3] != NULL && values[4] != NULL) {
        future = type->tp_alloc(type, 0);
    }
    if (future == NULL) {
        for (int i = 0; i < FUTURE_SLOTS; i++) {
            Py_XDECREF(values[i]);
        }
        return NULL;
    }
    for (int i = 0; i < FUTURE_SLOTS; i++) {
        *(PyObject **)((char *)future + future_offsets[i]) = values[i];
    }
    return future;
}

/* The batch append_to_batch last appended to (a weak reference) and what it read of it that cannot change while the
 * batch lives: borrowed references, valid while the batch holds them, which it does for its life. */
static struct {
    PyObject *ref;
    PyObject *builder, *produce_future, *callbacks, *futures;
    long long base_timestamp, header_size, write_limit, base_offset;
} last_batch;

#define GET_LL(obj, name, var)                                                                                        \
    do {                                                                                                              \
        int r_ = get_ll((obj), (name), &(var));                                                                       \
        if (r_ < 0) {                                                                                                 \
            goto error;                                                                                               \
        }                                                                                                             \
        if (r_ > 0) {                                                                                                 \
            goto fallback;                                                                                            \
        }                                                                                                             \
    } while (0)

/* append_to_batch's work; *fast_total is the record's size when it was written here (-1 when it was not, or when the
 * Python fallback took it). */
static PyObject *
append_to_batch_impl(PyObject *module, PyObject *const *args, Py_ssize_t nargs, long long *fast_total)
{
    *fast_total = -1;
    if (nargs != 7) {
        PyErr_SetString(PyExc_TypeError, "append_to_batch takes 7 arguments");
        return NULL;
    }
    if (g_fallback == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "register_producer_batch was not called");
        return NULL;
    }
    PyObject *batch = args[0], *ts_obj = args[1], *key_obj = args[2], *value_obj = args[3], *headers = args[4],
             *callback = args[5], *now = args[6];
    PyObject *batch_dict = NULL, *builder_dict = NULL, *future = NULL, *result = NULL, *record_count_obj = NULL,
             *next_count = NULL;
    PyObject *builder, *stream, *tmp, *produce_future, *callbacks, *futures;
    long long timestamp, num_records, magic, last_offset, base_timestamp, header_size, records_size, write_limit,
        base_offset, max_timestamp, record_count;
    int overflow = 0;
    if (!(headers == Py_None || (PyTuple_CheckExact(headers) && PyTuple_GET_SIZE(headers) == 0)) ||
        !PyLong_CheckExact(ts_obj)) {
        goto fallback;
    }
    timestamp = PyLong_AsLongLongAndOverflow(ts_obj, &overflow);
    if (timestamp == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (overflow || timestamp < 0) {
        goto fallback;
    }
    /* The builder: an open, uncompressed v2 data batch that already has a record (the Python path makes the first). */
    batch_dict = PyObject_GenericGetDict(batch, NULL);
    if (batch_dict == NULL) {
        goto error;
    }
    if (last_batch.ref != NULL && PyWeakref_GET_OBJECT(last_batch.ref) == batch) {
        /* The batch appended to last time: what cannot change while it lives, as read then. */
        builder = last_batch.builder;
        produce_future = last_batch.produce_future;
        callbacks = last_batch.callbacks;
        futures = last_batch.futures;
        base_timestamp = last_batch.base_timestamp;
        header_size = last_batch.header_size;
        write_limit = last_batch.write_limit;
        base_offset = last_batch.base_offset;
        builder_dict = PyObject_GenericGetDict(builder, NULL);
        if (builder_dict == NULL) {
            goto error;
        }
        stream = get_obj(builder_dict, s_append_stream);
        if (stream == NULL) {
            goto missing;
        }
        if (!PyByteArray_CheckExact(stream)) {
            goto fallback;
        }
        GET_LL(builder_dict, s_num_records, num_records);
        if (num_records <= 0 || num_records >= INT32_MAX) {
            goto fallback;
        }
        GET_LL(builder_dict, s_last_offset, last_offset);
        GET_LL(builder_dict, s_records_size, records_size);
        GET_LL(builder_dict, s_max_timestamp, max_timestamp);
        goto counted;
    }
    builder = get_obj(batch_dict, s_records_builder);
    if (builder == NULL) {
        goto missing;
    }
    builder_dict = PyObject_GenericGetDict(builder, NULL);
    if (builder_dict == NULL) {
        goto error;
    }
    stream = get_obj(builder_dict, s_append_stream);
    if (stream == NULL) {
        goto missing;
    }
    if (!PyByteArray_CheckExact(stream)) {
        goto fallback;
    }
    GET_LL(builder_dict, s_num_records, num_records);
    if (num_records <= 0 || num_records >= INT32_MAX) {
        goto fallback;
    }
    GET_LL(builder_dict, s_magic, magic);
    if (magic != 2) {
        goto fallback;
    }
    tmp = get_obj(builder_dict, s_is_control_batch);
    if (tmp != Py_False) {
        goto missing;
    }
    tmp = get_obj(builder_dict, s_compression_type);
    if (tmp != g_compression_none) {
        goto missing;
    }
    GET_LL(builder_dict, s_last_offset, last_offset);
    GET_LL(builder_dict, s_base_timestamp, base_timestamp);
    GET_LL(builder_dict, s_batch_header_size, header_size);
    GET_LL(builder_dict, s_records_size, records_size);
    GET_LL(builder_dict, s_write_limit, write_limit);
    GET_LL(builder_dict, s_base_offset, base_offset);
    GET_LL(builder_dict, s_max_timestamp, max_timestamp);
    /* The batch's bookkeeping, read before anything is written. */
    produce_future = get_obj(batch_dict, s_produce_future);
    if (produce_future == NULL) {
        goto missing;
    }
    callbacks = get_obj(batch_dict, s_callbacks);
    if (callbacks == NULL) {
        goto missing;
    }
    futures = get_obj(batch_dict, s_futures);
    if (futures == NULL) {
        goto missing;
    }
    if (!PyList_CheckExact(callbacks) || !PyList_CheckExact(futures)) {
        goto fallback;
    }
    /* Remembered (weakly) for the next append, which is most often to the same batch: the builder and these lists
     * are the batch's for its life (set in its __init__ only) and these of the builder's fields never change once it
     * has a record. */
    tmp = PyWeakref_NewRef(batch, NULL);
    if (tmp == NULL) {
        PyErr_Clear(); /* a batch without weak references: not remembered */
    }
    Py_XSETREF(last_batch.ref, tmp);
    last_batch.builder = builder;
    last_batch.produce_future = produce_future;
    last_batch.callbacks = callbacks;
    last_batch.futures = futures;
    last_batch.base_timestamp = base_timestamp;
    last_batch.header_size = header_size;
    last_batch.write_limit = write_limit;
    last_batch.base_offset = base_offset;
counted:
    tmp = get_obj(batch_dict, s_record_count);
    if (tmp == NULL) {
        goto missing;
    }
    if (!PyLong_CheckExact(tmp)) {
        goto fallback;
    }
    record_count = PyLong_AsLongLongAndOverflow(tmp, &overflow);
    if (record_count == -1 && PyErr_Occurred()) {
        goto error;
    }
    if (overflow) {
        goto fallback;
    }
    record_count_obj = Py_NewRef(tmp);
    long long estimated = header_size + records_size;
    if (write_limit <= estimated) {
        result = Py_NewRef(Py_None);
        goto done;
    }
    if (last_offset == LLONG_MAX || record_count >= LLONG_MAX) {
        goto fallback;
    }
    long long offset = last_offset + 1;
    long long offset_delta, timestamp_delta;
    if (__builtin_sub_overflow(offset, base_offset, &offset_delta) || offset_delta < 0 || offset_delta > INT32_MAX ||
        __builtin_sub_overflow(timestamp, base_timestamp, &timestamp_delta)) {
        goto fallback;
    }
    long long room_ll = write_limit - estimated;
    Py_ssize_t room = room_ll > PY_SSIZE_T_MAX ? PY_SSIZE_T_MAX : (Py_ssize_t)room_ll;
    field_t key, value, tail;
    tail.buf = NULL;
    tail.len = -1;
    tail.has_view = 0;
    if (get_field(key_obj, &key) < 0) {
        goto error;
    }
    if (get_field(value_obj, &value) < 0) {
        release_field(&key);
        goto error;
    }
    Py_ssize_t total = 0;
    int status = write_fields(stream, (int32_t)offset_delta, (int64_t)timestamp_delta, &key, &value, &tail, room,
                              &total);
    Py_ssize_t key_size = key.len, value_size = value.len;
    release_field(&key);
    release_field(&value);
    if (status == WRITE_ERROR) {
        goto error;
    }
    if (status == WRITE_OUT_OF_RANGE) {
        goto fallback;
    }
    if (status == WRITE_NO_ROOM) {
        result = Py_NewRef(Py_None);
        goto done;
    }
    /* The builder's counters, as append_if_room_sized's fast path sets them. */
    records_size += total;
    /* The builder's and the batch's record counts are normally the same number: one int for both. */
    next_count = PyLong_FromLongLong(num_records + 1);
    if (next_count == NULL || PyDict_SetItem(builder_dict, s_num_records, next_count) < 0 ||
        set_ll(builder_dict, s_records_size, records_size) < 0 ||
        set_ll(builder_dict, s_last_offset, offset) < 0) {
        goto error;
    }
    if (timestamp > max_timestamp &&
        (PyDict_SetItem(builder_dict, s_max_timestamp, ts_obj) < 0 || set_ll(builder_dict, s_offset_of_max_timestamp, offset) < 0)) {
        goto error;
    }
    /* The batch's, as try_append sets them. */
    if (set_ll(batch_dict, s_last_appended_bytes, total) < 0 || PyDict_SetItem(batch_dict, s_last_append_time, now) < 0) {
        goto error;
    }
    future = new_future(produce_future, record_count_obj, ts_obj, key_size, value_size);
    if (future == NULL || PyList_Append(callbacks, callback) < 0 || PyList_Append(futures, future) < 0 ||
        (record_count == num_records ? PyDict_SetItem(batch_dict, s_record_count, next_count)
                                     : set_ll(batch_dict, s_record_count, record_count + 1)) < 0) {
        goto error;
    }
    result = PyTuple_Pack(2, future, write_limit <= header_size + records_size ? Py_True : Py_False);
    if (result != NULL) {
        *fast_total = total;
    }
    goto done;
missing:
    if (PyErr_Occurred()) {
        goto error;
    }
fallback:
    result = PyObject_Vectorcall(g_fallback, args, (size_t)nargs, NULL);
    goto done;
error:
    result = NULL;
done:
    Py_XDECREF(batch_dict);
    Py_XDECREF(builder_dict);
    Py_XDECREF(future);
    Py_XDECREF(record_count_obj);
    Py_XDECREF(next_count);
    return result;
}

static PyObject *
append_to_batch(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    long long fast_total;
    return append_to_batch_impl(module, args, nargs, &fast_total);
}

/* RecordAccumulator's RecordAppendResult: its five slots, in its constructor's order. */
#define APPEND_RESULT_SLOTS 5
static const char *const append_result_slot_names[] = {
    "future", "batch_is_full", "new_batch_created", "abort_for_new_batch", "appended_bytes",
};
static Py_ssize_t append_result_offsets[APPEND_RESULT_SLOTS];
static PyObject *g_append_result_type;

static PyObject *
register_append_result(PyObject *module, PyObject *type)
{
    if (register_slotted(type, append_result_slot_names, APPEND_RESULT_SLOTS, append_result_offsets,
                         &g_append_result_type) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

/* append_to_last_batch(dq, timestamp, key, value, headers, callback, now): append_to_batch to the deque's last batch,
 * answered as the accumulator answers an append to an existing batch: RecordAppendResult(future, the deque has more
 * than one batch or the last is now full, False, False, the batch's last_appended_bytes), made without its __init__;
 * None when the record does not fit. */
/* append_to_last_batch's work; *last_is_full is then whether the last batch is full after the append (what
 * append_to_batch answered, the batch's is_full()). */
static PyObject *
append_last(PyObject *module, PyObject *const *args, int *last_is_full_out)
{
    if (g_append_result_type == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "register_append_result was not called");
        return NULL;
    }
    Py_ssize_t count = PyObject_Length(args[0]);
    if (count < 0) {
        return NULL;
    }
    if (count == 0) {
        PyErr_SetString(PyExc_IndexError, "append_to_last_batch: no batch");
        return NULL;
    }
    PyObject *last = PySequence_GetItem(args[0], count - 1);
    if (last == NULL) {
        return NULL;
    }
    PyObject *batch_args[7] = {last, args[1], args[2], args[3], args[4], args[5], args[6]};
    long long fast_total;
    PyObject *appended = append_to_batch_impl(module, batch_args, 7, &fast_total);
    PyObject *result = NULL, *appended_bytes = NULL;
    if (appended == NULL) {
        goto done;
    }
    if (appended == Py_None) {
        result = Py_NewRef(Py_None);
        goto done;
    }
    if (!PyTuple_Check(appended) || PyTuple_GET_SIZE(appended) != 2) {
        PyErr_SetString(PyExc_TypeError, "append_to_batch must return (future, is_full) or None");
        goto done;
    }
    int last_is_full = PyObject_IsTrue(PyTuple_GET_ITEM(appended, 1));
    if (last_is_full < 0) {
        goto done;
    }
    /* The batch's last_appended_bytes, as written (or the attribute, after the Python fallback). */
    appended_bytes =
        fast_total >= 0 ? PyLong_FromLongLong(fast_total) : PyObject_GetAttr(last, s_last_appended_bytes);
    if (appended_bytes == NULL) {
        goto done;
    }
    *last_is_full_out = last_is_full;
    PyTypeObject *type = (PyTypeObject *)g_append_result_type;
    result = type->tp_alloc(type, 0);
    if (result == NULL) {
        goto done;
    }
    PyObject *values[APPEND_RESULT_SLOTS] = {
        PyTuple_GET_ITEM(appended, 0), count > 1 || last_is_full ? Py_True : Py_False, Py_False, Py_False,
        appended_bytes,
    };
    for (int i = 0; i < APPEND_RESULT_SLOTS; i++) {
        *(PyObject **)((char *)result + append_result_offsets[i]) = Py_NewRef(values[i]);
    }
done:
    Py_DECREF(last);
    Py_XDECREF(appended);
    Py_XDECREF(appended_bytes);
    return result;
}

static PyObject *
append_to_last_batch(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 7) {
        PyErr_SetString(PyExc_TypeError, "append_to_last_batch takes 7 arguments");
        return NULL;
    }
    int last_is_full = 0;
    return append_last(module, args, &last_is_full);
}

#define SLOT(obj, offsets, i) (*(PyObject **)((char *)(obj) + (offsets)[i]))

/* The RecordMetadata of a record whose future belongs to the batch being completed (RecordMetadata.__init__'s
 * fields, set directly), or NULL with an exception set. */
static PyObject *
new_metadata(PyObject *future, PyObject *topic_partition, PyObject *base_offset, long long base, PyObject *log_append_time,
             int log_append)
{
    PyObject *index = SLOT(future, future_offsets, F_BATCH_INDEX);
    PyObject *key_size = SLOT(future, future_offsets, F_KEY_SIZE);
    PyObject *value_size = SLOT(future, future_offsets, F_VALUE_SIZE);
    PyObject *timestamp = log_append ? log_append_time : SLOT(future, future_offsets, F_CREATE_TIMESTAMP);
    if (index == NULL || key_size == NULL || value_size == NULL || timestamp == NULL) {
        PyErr_SetString(PyExc_AttributeError, "a future without its fields");
        return NULL;
    }
    PyObject *offset;
    if (base == -1) {
        offset = Py_NewRef(base_offset);
    }
    else {
        offset = PyNumber_Add(base_offset, index);
        if (offset == NULL) {
            return NULL;
        }
    }
    PyTypeObject *type = (PyTypeObject *)g_metadata_type;
    PyObject *metadata = type->tp_alloc(type, 0);
    if (metadata == NULL) {
        Py_DECREF(offset);
        return NULL;
    }
    SLOT(metadata, metadata_offsets, 0) = offset;
    SLOT(metadata, metadata_offsets, 1) = Py_NewRef(timestamp);
    SLOT(metadata, metadata_offsets, 2) = Py_NewRef(key_size);
    SLOT(metadata, metadata_offsets, 3) = Py_NewRef(value_size);
    SLOT(metadata, metadata_offsets, 4) = Py_NewRef(topic_partition);
    return metadata;
}

/* fire_callbacks(callbacks, futures, produce_future, topic_partition, base_offset, log_append_time, on_error):
 * ProducerBatch's loop over a successful batch's records, in order: each callback that is not None gets
 * on_completion(metadata, None); an Exception it raises goes to on_error, anything else ends the loop. An
 * AppendCallbacks without interceptors is skipped over: its user callback (if any) is called directly. */
static PyObject *
fire_callbacks(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 7) {
        PyErr_SetString(PyExc_TypeError, "fire_callbacks takes 7 arguments");
        return NULL;
    }
    if (g_metadata_type == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "register_producer_batch was not called");
        return NULL;
    }
    PyObject *callbacks = args[0], *futures = args[1], *produce_future = args[2], *topic_partition = args[3],
             *base_offset = args[4], *log_append_time = args[5], *on_error = args[6];
    if (!PyList_CheckExact(callbacks) || !PyList_CheckExact(futures) || !PyLong_CheckExact(base_offset) ||
        !PyLong_CheckExact(log_append_time)) {
        PyErr_SetString(PyExc_TypeError, "fire_callbacks takes two lists and two ints");
        return NULL;
    }
    int overflow = 0;
    long long base = PyLong_AsLongLongAndOverflow(base_offset, &overflow);
    if (base == -1 && PyErr_Occurred()) {
        return NULL;
    }
    long long append_time = PyLong_AsLongLongAndOverflow(log_append_time, &overflow);
    if (append_time == -1 && PyErr_Occurred()) {
        return NULL;
    }
    int log_append = overflow || append_time != -1; /* NO_TIMESTAMP: each record keeps its create time */
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(callbacks) && i < PyList_GET_SIZE(futures); i++) {
        PyObject *callback = PyList_GET_ITEM(callbacks, i);
        if (callback == Py_None) {
            continue;
        }
        if (g_append_callbacks_type != NULL && Py_IS_TYPE(callback, (PyTypeObject *)g_append_callbacks_type) &&
            SLOT(callback, append_callbacks_offsets, 0) == Py_None) {
            callback = SLOT(callback, append_callbacks_offsets, 1);
            if (callback == NULL) {
                PyErr_SetString(PyExc_AttributeError, "_user_callback");
                return NULL;
            }
            if (callback == Py_None) {
                continue;
            }
        }
        Py_INCREF(callback);
        PyObject *future = Py_NewRef(PyList_GET_ITEM(futures, i));
        PyObject *metadata;
        if (Py_IS_TYPE(future, (PyTypeObject *)g_future_type) &&
            SLOT(future, future_offsets, F_NEXT) == Py_None &&
            SLOT(future, future_offsets, F_RESULT) == produce_future) {
            metadata = new_metadata(future, topic_partition, base_offset, base, log_append_time, log_append);
        }
        else {
            metadata = PyObject_CallMethod(future, "value", NULL);
        }
        Py_DECREF(future);
        PyObject *r = NULL;
        if (metadata != NULL) {
            PyObject *call_args[3] = {callback, metadata, Py_None};
            r = PyObject_VectorcallMethod(s_on_completion, call_args, 3 | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL);
            Py_DECREF(metadata);
        }
        Py_DECREF(callback);
        if (r != NULL) {
            Py_DECREF(r);
            continue;
        }
        if (!PyErr_ExceptionMatches(PyExc_Exception)) {
            return NULL;
        }
        PyObject *type, *value, *tb;
        PyErr_Fetch(&type, &value, &tb);
        PyErr_NormalizeException(&type, &value, &tb);
        if (tb != NULL && value != NULL) {
            PyException_SetTraceback(value, tb);
        }
        Py_XDECREF(type);
        Py_XDECREF(tb);
        if (value == NULL) {
            continue;
        }
        PyObject *logged = PyObject_CallOneArg(on_error, value);
        Py_DECREF(value);
        if (logged == NULL) {
            return NULL;
        }
        Py_DECREF(logged);
    }
    Py_RETURN_NONE;
}

/* ---- the accumulator's append to a partition's open batch (RecordAccumulator.append's common case) ------------ */

/* RecordAccumulator's _TopicInfo and the built-in partitioner's StickyPartitionInfo: their slots' offsets. */
#define TOPIC_INFO_SLOTS 2
static const char *const topic_info_slot_names[] = {"batches", "built_in_partitioner"};
static Py_ssize_t topic_info_offsets[TOPIC_INFO_SLOTS];
#define PARTITION_INFO_SLOTS 2
static const char *const partition_info_slot_names[] = {"index", "produced_bytes"};
static Py_ssize_t partition_info_offsets[PARTITION_INFO_SLOTS];
static PyObject *g_topic_info_type, *g_partition_info_type;
static PyObject *s_topic_info_map, *s_closed, *s_appends_in_progress, *s_sticky_partition_info, *s_sticky_batch_size,
    *s_lock, *s_acquire, *s_release, *s_update_partition_info;

static PyObject *
register_accumulator(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "register_accumulator takes 2 arguments");
        return NULL;
    }
    Py_ssize_t offsets[TOPIC_INFO_SLOTS], info_offsets[PARTITION_INFO_SLOTS];
    if (slot_offsets(args[0], topic_info_slot_names, TOPIC_INFO_SLOTS, offsets) < 0 ||
        slot_offsets(args[1], partition_info_slot_names, PARTITION_INFO_SLOTS, info_offsets) < 0) {
        return NULL;
    }
    if (s_topic_info_map == NULL) {
        if (!(s_topic_info_map = intern("_topic_info_map")) || !(s_closed = intern("_closed")) ||
            !(s_appends_in_progress = intern("_appends_in_progress")) ||
            !(s_sticky_partition_info = intern("sticky_partition_info")) ||
            !(s_sticky_batch_size = intern("sticky_batch_size")) || !(s_lock = intern("lock")) ||
            !(s_acquire = intern("acquire")) || !(s_release = intern("release")) ||
            !(s_update_partition_info = intern("update_partition_info"))) {
            return NULL;
        }
    }
    memcpy(topic_info_offsets, offsets, sizeof offsets);
    memcpy(partition_info_offsets, info_offsets, sizeof info_offsets);
    Py_XSETREF(g_topic_info_type, Py_NewRef(args[0]));
    Py_XSETREF(g_partition_info_type, Py_NewRef(args[1]));
    Py_RETURN_NONE;
}

/* A borrowed attribute from an instance dict (dict lookups with interned names), or NULL (an exception set only on
 * error). */
static PyObject *
dict_attr(PyObject *obj, PyObject *name)
{
    PyObject **dictptr = _PyObject_GetDictPtr(obj);
    if (dictptr == NULL || *dictptr == NULL) {
        return NULL;
    }
    return PyDict_GetItemWithError(*dictptr, name);
}

/* append_to_partition(accumulator, topic, partition, timestamp, key, value, headers, callbacks, now, cluster):
 * RecordAccumulator.append's common case in one call: a record without headers (headers the empty tuple), with
 * KafkaProducer's AppendCallbacks (the class given to register_append_callbacks), going to the topic's sticky
 * partition (partition -1) or a given one, whose deque already exists and has a last batch with room. It does what
 * append does on that path: counts itself in _appends_in_progress, sets the callbacks' partition, takes the deque's
 * lock, re-checks the sticky partition and the accumulator's closed flag under it, appends to the last batch
 * (append_to_last_batch), counts the appended bytes against the sticky partition (update_partition_info, called as
 * append calls it, once they reach the sticky batch size) and returns the RecordAppendResult. It returns None having
 * changed nothing but the callbacks' partition (which append sets again) in every other case: the caller then calls
 * RecordAccumulator.append. */
/* The accumulator append_to_partition last read (a weak reference), with its topic map and its list of appends in
 * progress (strong references: RecordAccumulator sets both once, in its __init__, so while it lives they are its
 * own; held, they stay valid even if that ever changed). */
static struct {
    PyObject *ref;
    PyObject *topic_info_map, *appends;
} last_accumulator;

static PyObject *
append_to_partition(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 10) {
        PyErr_SetString(PyExc_TypeError, "append_to_partition takes 10 arguments");
        return NULL;
    }
    if (g_topic_info_type == NULL || g_append_result_type == NULL || g_append_callbacks_type == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "register_accumulator was not called");
        return NULL;
    }
    PyObject *accumulator = args[0], *topic = args[1], *partition = args[2], *headers = args[6],
             *callbacks = args[7], *cluster = args[9];
    PyObject *topic_info_map, *topic_info, *batches, *partitioner, *partition_info = NULL, *effective = partition, *dq,
        *lock, *appends, *result = NULL, *r, *closed;
    PyObject *lock_args[1];
    Py_ssize_t count;
    int locked = 0, counted = 0;
    if (!PyTuple_CheckExact(headers) || PyTuple_GET_SIZE(headers) != 0 ||
        !Py_IS_TYPE(callbacks, (PyTypeObject *)g_append_callbacks_type) || !PyLong_CheckExact(partition)) {
        Py_RETURN_NONE;
    }
    int overflow = 0;
    long long requested = PyLong_AsLongLongAndOverflow(partition, &overflow);
    if (requested == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (overflow || requested < -1) {
        Py_RETURN_NONE;
    }
    if (last_accumulator.ref != NULL && PyWeakref_GET_OBJECT(last_accumulator.ref) == accumulator) {
        topic_info_map = last_accumulator.topic_info_map;
        appends = last_accumulator.appends;
    }
    else {
        topic_info_map = dict_attr(accumulator, s_topic_info_map);
        if (topic_info_map == NULL || !PyDict_CheckExact(topic_info_map)) {
            goto not_handled;
        }
        appends = dict_attr(accumulator, s_appends_in_progress);
        if (appends == NULL || !PyList_CheckExact(appends)) {
            goto not_handled;
        }
        PyObject *ref = PyWeakref_NewRef(accumulator, NULL);
        if (ref == NULL) {
            PyErr_Clear(); /* an accumulator without weak references: not remembered */
        }
        /* Every field is set before the old values are released: releasing one can run Python (a dead
         * accumulator's batches and their callbacks), which can let another thread read the cache. */
        PyObject *old_ref = last_accumulator.ref, *old_map = last_accumulator.topic_info_map,
                 *old_appends = last_accumulator.appends;
        last_accumulator.topic_info_map = Py_NewRef(topic_info_map);
        last_accumulator.appends = Py_NewRef(appends);
        last_accumulator.ref = ref;
        Py_XDECREF(old_ref);
        Py_XDECREF(old_map);
        Py_XDECREF(old_appends);
    }
    topic_info = PyDict_GetItemWithError(topic_info_map, topic);
    if (topic_info == NULL || !Py_IS_TYPE(topic_info, (PyTypeObject *)g_topic_info_type)) {
        goto not_handled;
    }
    batches = SLOT(topic_info, topic_info_offsets, 0);
    partitioner = SLOT(topic_info, topic_info_offsets, 1);
    if (batches == NULL || partitioner == NULL || !PyDict_CheckExact(batches)) {
        goto not_handled;
    }
    if (requested == -1) {
        partition_info = dict_attr(partitioner, s_sticky_partition_info);
        if (partition_info == NULL || !Py_IS_TYPE(partition_info, (PyTypeObject *)g_partition_info_type)) {
            goto not_handled;
        }
        effective = SLOT(partition_info, partition_info_offsets, 0);
        if (effective == NULL) {
            goto not_handled;
        }
    }
    dq = PyDict_GetItemWithError(batches, effective);
    if (dq == NULL) {
        goto not_handled;
    }
    lock = dict_attr(dq, s_lock);
    if (lock == NULL) {
        goto not_handled;
    }
    /* From here on, as append: counted as an append in progress, the partition told, under the deque's lock. */
    Py_XINCREF(partition_info);
    Py_INCREF(partitioner);
    Py_INCREF(dq);
    Py_INCREF(lock);
    Py_INCREF(appends);
    if (PyList_Append(appends, Py_None) < 0) {
        goto done;
    }
    counted = 1;
    Py_SETREF(SLOT(callbacks, append_callbacks_offsets, 4), Py_NewRef(effective));
    lock_args[0] = lock;
    r = PyObject_VectorcallMethod(s_acquire, lock_args, 1 | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL);
    if (r == NULL) {
        goto done;
    }
    Py_DECREF(r);
    locked = 1;
    count = PyObject_Length(dq);
    if (count < 0) {
        goto done;
    }
    if (count == 0 || (partition_info != NULL && dict_attr(partitioner, s_sticky_partition_info) != partition_info)) {
        /* append's partition-changed check has work to do. */
        goto unlocked_not_handled;
    }
    closed = dict_attr(accumulator, s_closed);
    if (closed != Py_False) {
        goto unlocked_not_handled;
    }
    PyObject *append_args[7] = {dq, args[3], args[4], args[5], headers, callbacks, args[8]};
    int last_is_full = 0;
    result = append_last(module, append_args, &last_is_full);
    if (result == NULL) {
        goto done;
    }
    if (result == Py_None) {
        /* No room: append closes the batch and makes a new one. */
        Py_CLEAR(result);
        goto unlocked_not_handled;
    }
    if (partition_info != NULL) {
        /* update_partition_info's common case, as append writes it out: below the sticky batch size it only counts
         * the bytes. */
        PyObject *appended_bytes = SLOT(result, append_result_offsets, 4);
        PyObject *produced = SLOT(partition_info, partition_info_offsets, 1);
        PyObject *batch_size = dict_attr(partitioner, s_sticky_batch_size);
        if (appended_bytes == NULL || produced == NULL || batch_size == NULL) {
            if (!PyErr_Occurred()) {
                PyErr_SetString(PyExc_AttributeError, "the partitioner's state is missing");
            }
            Py_CLEAR(result);
            goto done;
        }
        PyObject *sum = PyNumber_Add(produced, appended_bytes);
        if (sum == NULL) {
            Py_CLEAR(result);
            goto done;
        }
        int below = PyObject_RichCompareBool(sum, batch_size, Py_LT);
        if (below < 0) {
            Py_DECREF(sum);
            Py_CLEAR(result);
            goto done;
        }
        if (below) {
            Py_SETREF(SLOT(partition_info, partition_info_offsets, 1), sum);
        }
        else {
            /* Hold back a partition switch while the last batch (the only one that can have room) is still
             * filling. */
            /* _all_batches_full(dq): whether the last batch, the one just appended to under the lock, is full. */
            PyObject *enable_switch = Py_NewRef(last_is_full ? Py_True : Py_False);
            if (enable_switch == Py_False) {
                /* update_partition_info without a switch allowed: below twice the sticky batch size it only counts
                 * the bytes too (no switch, no trace line). */
                int overflow_sum = 0, overflow_size = 0;
                long long sum_ll = PyLong_CheckExact(sum) ? PyLong_AsLongLongAndOverflow(sum, &overflow_sum) : -1;
                long long size_ll =
                    PyLong_CheckExact(batch_size) ? PyLong_AsLongLongAndOverflow(batch_size, &overflow_size) : -1;
                if (PyErr_Occurred()) {
                    Py_DECREF(enable_switch);
                    Py_DECREF(sum);
                    Py_CLEAR(result);
                    goto done;
                }
                if (!overflow_sum && !overflow_size && sum_ll >= 0 && size_ll > 0 && size_ll <= LLONG_MAX / 2 &&
                    sum_ll < 2 * size_ll) {
                    Py_DECREF(enable_switch);
                    Py_SETREF(SLOT(partition_info, partition_info_offsets, 1), sum);
                    goto done;
                }
            }
            Py_DECREF(sum);
            PyObject *update_args[5] = {partitioner, partition_info, appended_bytes, cluster, enable_switch};
            PyObject *updated = PyObject_VectorcallMethod(s_update_partition_info, update_args,
                                                          5 | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL);
            Py_DECREF(enable_switch);
            if (updated == NULL) {
                Py_CLEAR(result);
                goto done;
            }
            Py_DECREF(updated);
        }
    }
    goto done;
unlocked_not_handled:
    result = Py_NewRef(Py_None);
done:
    if (locked) {
        PyObject *et, *ev, *etb;
        PyErr_Fetch(&et, &ev, &etb);
        PyObject *released = PyObject_VectorcallMethod(s_release, lock_args, 1 | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL);
        if (released == NULL) {
            Py_XDECREF(et);
            Py_XDECREF(ev);
            Py_XDECREF(etb);
            Py_CLEAR(result);
        }
        else {
            Py_DECREF(released);
            PyErr_Restore(et, ev, etb);
        }
    }
    if (counted) {
        /* _appends_in_progress.pop(): every entry is None, so the last one goes. */
        Py_ssize_t n = PyList_GET_SIZE(appends);
        if (n > 0) {
            PyObject *et, *ev, *etb;
            PyErr_Fetch(&et, &ev, &etb);
            if (PyList_SetSlice(appends, n - 1, n, NULL) < 0) {
                Py_XDECREF(et);
                Py_XDECREF(ev);
                Py_XDECREF(etb);
                Py_CLEAR(result);
            }
            else {
                PyErr_Restore(et, ev, etb);
            }
        }
    }
    Py_XDECREF(partition_info);
    Py_DECREF(partitioner);
    Py_DECREF(dq);
    Py_DECREF(lock);
    Py_DECREF(appends);
    return result;
not_handled:
    if (PyErr_Occurred()) {
        return NULL;
    }
    Py_RETURN_NONE;
}

/* ---- ProducerRecord's constructor: its six slots set in one call ------------------------------------------------ */

static const char *const record_slot_names[] = {"topic", "partition", "key", "value", "timestamp", "_headers"};
#define RECORD_SLOTS 6
static Py_ssize_t record_offsets[RECORD_SLOTS];
static PyObject *g_record_type;

static PyObject *
register_producer_record(PyObject *module, PyObject *type)
{
    if (register_slotted(type, record_slot_names, RECORD_SLOTS, record_offsets, &g_record_type) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

/* set_record_slots(record, topic, partition, key, value, timestamp, headers): what the slots' own setters do, for a
 * ProducerRecord (or subclass) whose class refuses attribute assignment. */
static PyObject *
set_record_slots(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 1 + RECORD_SLOTS) {
        PyErr_SetString(PyExc_TypeError, "set_record_slots takes 7 arguments");
        return NULL;
    }
    if (g_record_type == NULL || !PyObject_TypeCheck(args[0], (PyTypeObject *)g_record_type)) {
        PyErr_SetString(PyExc_TypeError, "set_record_slots takes a ProducerRecord");
        return NULL;
    }
    PyObject *record = args[0];
    for (int i = 0; i < RECORD_SLOTS; i++) {
        PyObject **slot = (PyObject **)((char *)record + record_offsets[i]);
        PyObject *old = *slot;
        *slot = Py_NewRef(args[1 + i]);
        Py_XDECREF(old);
    }
    Py_RETURN_NONE;
}

/* ---- KafkaProducer.send's common case (a record with neither key, partition nor headers, no interceptors) ------- */

static PyObject *g_callback_types, *g_sent_empty_headers, *g_empty_tuple;
static long long g_record_size_margin;
static PyObject *s_has_interceptors, *s_sender, *s_time, *s_partitioner, *s_key_is_bytes, *s_value_is_bytes,
    *s_transaction_manager, *s_partition_check_needed, *s_record_size_limit, *s_metadata, *s_accumulator, *s_running,
    *s_fetch_for_send, *s_wakeup_sender, *s_metadata_snapshot, *s_send_lookups, *s_topics, *s_metadata_idle_ms,
    *s_trace_enabled, *s_wakeup_pending, *s_wakeup;

static PyObject *
register_send(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "register_send takes 3 arguments");
        return NULL;
    }
    if (!PyDict_CheckExact(args[0])) {
        PyErr_SetString(PyExc_TypeError, "register_send: the callback types are a dict");
        return NULL;
    }
    long long margin = PyLong_AsLongLong(args[2]);
    if (margin == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (s_has_interceptors == NULL) {
        if (!(s_has_interceptors = intern("_has_interceptors")) || !(s_sender = intern("_sender")) ||
            !(s_time = intern("_time")) || !(s_partitioner = intern("_partitioner")) ||
            !(s_key_is_bytes = intern("_key_serializer_is_bytes")) ||
            !(s_value_is_bytes = intern("_value_serializer_is_bytes")) ||
            !(s_transaction_manager = intern("_transaction_manager")) ||
            !(s_partition_check_needed = intern("partition_check_needed")) ||
            !(s_record_size_limit = intern("_record_size_limit")) || !(s_metadata = intern("_metadata")) ||
            !(s_accumulator = intern("_accumulator")) || !(s_running = intern("running")) ||
            !(s_fetch_for_send = intern("fetch_for_send")) || !(s_wakeup_sender = intern("_wakeup_sender")) ||
            !(s_metadata_snapshot = intern("_metadata_snapshot")) || !(s_send_lookups = intern("_send_lookups")) ||
            !(s_topics = intern("_topics")) || !(s_metadata_idle_ms = intern("_metadata_idle_ms")) ||
            !(s_trace_enabled = intern("_trace_enabled")) || !(s_wakeup_pending = intern("_wakeup_pending")) ||
            !(s_wakeup = intern("wakeup"))) {
            return NULL;
        }
    }
    if (g_empty_tuple == NULL && (g_empty_tuple = PyTuple_New(0)) == NULL) {
        return NULL;
    }
    Py_XSETREF(g_callback_types, Py_NewRef(args[0]));
    Py_XSETREF(g_sent_empty_headers, Py_NewRef(args[1]));
    g_record_size_margin = margin;
    Py_RETURN_NONE;
}

/* A field's length as send counts it (0 for None), or -1 for anything but None or exact bytes. */
static Py_ssize_t
plain_bytes_len(PyObject *obj)
{
    if (obj == Py_None) {
        return 0;
    }
    return PyBytes_CheckExact(obj) ? PyBytes_GET_SIZE(obj) : -1;
}

/* The producer send_common last found fit (a weak reference) and its record size limit: its interceptors, clock,
 * partitioner, serializers and limit, which KafkaProducer sets once (in _init), are not read again for it. */
static struct {
    PyObject *ref;
    long long limit;
    int limit_overflow;
    /* Its ProducerMetadata and what fetch_for_send's answer is read from that the metadata sets once (in its
     * __init__): the topics' lookups, their expiry times and the idle time (strong references). */
    PyObject *metadata, *lookups, *topics, *idle;
} last_producer;

/* send_common(producer, record, callback): KafkaProducer.send for a ProducerRecord without key, partition or
 * headers, whose value is bytes or None, with a callback that is None or of a known Callback class, by a running
 * producer with byte-array serializers, the built-in partitioner, no interceptors, no partition check of a
 * transaction, the system clock and the topic's partitions known: the same steps as send (the record's headers made
 * read-only, the callbacks made, the append as append_to_partition does it, the sender woken through
 * producer._wakeup_sender when the batch is full), returning the record's future. It returns None before anything
 * but the topic's metadata expiry (fetch_for_send) and the record's empty headers (both as send sets them) is changed
 * in every other case, and when append_to_partition does not take the record: the caller then runs send's Python. */
static PyObject *
send_common(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "send_common takes 3 arguments");
        return NULL;
    }
    if (g_callback_types == NULL || g_record_type == NULL || g_append_callbacks_type == NULL ||
        g_topic_info_type == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "register_send was not called");
        return NULL;
    }
    PyObject *producer = args[0], *record = args[1], *callback = args[2];
    if (!Py_IS_TYPE(record, (PyTypeObject *)g_record_type)) {
        Py_RETURN_NONE;
    }
    if (callback != Py_None && PyDict_GetItemWithError(g_callback_types, (PyObject *)Py_TYPE(callback)) != Py_True) {
        goto not_handled;
    }
    PyObject *topic = SLOT(record, record_offsets, 0), *partition = SLOT(record, record_offsets, 1),
             *key = SLOT(record, record_offsets, 2), *value = SLOT(record, record_offsets, 3),
             *timestamp = SLOT(record, record_offsets, 4), *headers = SLOT(record, record_offsets, 5);
    if (topic == NULL || partition != Py_None || key != Py_None || value == NULL || timestamp == NULL ||
        headers != Py_None) {
        goto not_handled;
    }
    Py_ssize_t value_len = plain_bytes_len(value);
    if (value_len < 0) {
        goto not_handled;
    }
    PyObject *sender = dict_attr(producer, s_sender);
    if (sender == NULL || sender == Py_None || dict_attr(sender, s_running) != Py_True) {
        goto not_handled;
    }
    int overflow = 0;
    long long limit;
    PyObject *metadata, *lookups, *topics, *idle;
    if (last_producer.ref != NULL && PyWeakref_GET_OBJECT(last_producer.ref) == producer) {
        /* The producer whose settings were found fit last time: KafkaProducer sets them once, in its _init. */
        limit = last_producer.limit;
        overflow = last_producer.limit_overflow;
        metadata = last_producer.metadata;
        lookups = last_producer.lookups;
        topics = last_producer.topics;
        idle = last_producer.idle;
    }
    else {
        if (dict_attr(producer, s_has_interceptors) != Py_False || dict_attr(producer, s_time) != g_time ||
            dict_attr(producer, s_partitioner) != Py_None || dict_attr(producer, s_key_is_bytes) != Py_True ||
            dict_attr(producer, s_value_is_bytes) != Py_True) {
            goto not_handled;
        }
        PyObject *limit_obj = dict_attr(producer, s_record_size_limit);
        if (limit_obj == NULL || !PyLong_CheckExact(limit_obj)) {
            goto not_handled;
        }
        limit = PyLong_AsLongLongAndOverflow(limit_obj, &overflow);
        if (limit == -1 && PyErr_Occurred()) {
            return NULL;
        }
        metadata = dict_attr(producer, s_metadata);
        if (metadata == NULL) {
            goto not_handled;
        }
        lookups = dict_attr(metadata, s_send_lookups);
        topics = dict_attr(metadata, s_topics);
        idle = dict_attr(metadata, s_metadata_idle_ms);
        if (lookups == NULL || topics == NULL || idle == NULL || !PyDict_CheckExact(lookups) ||
            !PyDict_CheckExact(topics) || !PyLong_CheckExact(idle)) {
            goto not_handled;
        }
        PyObject *ref = PyWeakref_NewRef(producer, NULL);
        if (ref == NULL) {
            PyErr_Clear(); /* a producer without weak references: not remembered */
        }
        /* As in append_to_partition: every field set before the old values are released. */
        PyObject *old_ref = last_producer.ref, *old_metadata = last_producer.metadata,
                 *old_lookups = last_producer.lookups, *old_topics = last_producer.topics, *old_idle = last_producer.idle;
        last_producer.limit = limit;
        last_producer.limit_overflow = overflow;
        last_producer.metadata = Py_NewRef(metadata);
        last_producer.lookups = Py_NewRef(lookups);
        last_producer.topics = Py_NewRef(topics);
        last_producer.idle = Py_NewRef(idle);
        last_producer.ref = ref;
        Py_XDECREF(old_ref);
        Py_XDECREF(old_metadata);
        Py_XDECREF(old_lookups);
        Py_XDECREF(old_topics);
        Py_XDECREF(old_idle);
    }
    PyObject *transaction_manager = dict_attr(producer, s_transaction_manager);
    if (transaction_manager == NULL ||
        (transaction_manager != Py_None && dict_attr(transaction_manager, s_partition_check_needed) != Py_False)) {
        goto not_handled;
    }
    /* A record far below the limits cannot fail send's size check; near them send makes the exact estimate. */
    if (overflow < 0 || (!overflow && (long long)value_len + g_record_size_margin > limit)) {
        goto not_handled;
    }
    PyObject *accumulator = dict_attr(producer, s_accumulator);
    if (accumulator == NULL) {
        goto not_handled;
    }
    /* The system clock's milliseconds, as time.time_ns() // 1_000_000 reads them. */
    struct timespec ts;
    if (clock_gettime(CLOCK_REALTIME, &ts) != 0 || ts.tv_sec < 0) {
        goto not_handled;
    }
    PyObject *now = PyLong_FromLongLong((long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
    if (now == NULL) {
        return NULL;
    }
    Py_INCREF(producer);
    Py_INCREF(record);
    Py_INCREF(metadata);
    Py_INCREF(accumulator);
    PyObject *result = NULL, *fetched = NULL, *append_callbacks = NULL, *appended = NULL, *cluster;
    /* fetch_for_send's answer when it has nothing to do (its lookup of the topic made with the current metadata
     * snapshot, the partition count known, the topic's expiry already set from this millisecond) read here; in any
     * other case it is called. */
    PyObject *snapshot = dict_attr(metadata, s_metadata_snapshot);
    PyObject *lookup = NULL, *expiry = NULL;
    if (snapshot != NULL) {
        lookup = PyDict_GetItemWithError(lookups, topic);
        if (lookup != NULL && PyTuple_CheckExact(lookup) && PyTuple_GET_SIZE(lookup) == 3 &&
            PyTuple_GET_ITEM(lookup, 0) == snapshot && PyTuple_GET_ITEM(lookup, 2) != Py_None) {
            expiry = PyDict_GetItemWithError(topics, topic);
        }
    }
    if (PyErr_Occurred()) {
        goto done;
    }
    if (expiry != NULL && PyLong_CheckExact(expiry)) {
        int overflow_idle = 0, overflow_expiry = 0;
        long long idle_ms = PyLong_AsLongLongAndOverflow(idle, &overflow_idle);
        long long expiry_ms = PyLong_AsLongLongAndOverflow(expiry, &overflow_expiry);
        long long now_ms = (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
        if (PyErr_Occurred()) {
            goto done;
        }
        if (!overflow_idle && !overflow_expiry && idle_ms >= 0 && idle_ms <= LLONG_MAX - now_ms &&
            expiry_ms == now_ms + idle_ms) {
            fetched = Py_NewRef(lookup);
        }
    }
    if (fetched != NULL) {
        cluster = PyTuple_GET_ITEM(fetched, 1);
    }
    else {
        PyObject *fetch_args[3] = {metadata, topic, now};
        fetched = PyObject_VectorcallMethod(s_fetch_for_send, fetch_args, 3 | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL);
        if (fetched == NULL) {
            goto done;
        }
        if (!PyTuple_CheckExact(fetched) || PyTuple_GET_SIZE(fetched) != 2 ||
            PyTuple_GET_ITEM(fetched, 1) == Py_None) {
            /* The topic's partitions are not known yet: send waits for them. */
            result = Py_NewRef(Py_None);
            goto done;
        }
        cluster = PyTuple_GET_ITEM(fetched, 0);
    }
    PyObject *make_args[4] = {callback, Py_None, topic, Py_None};
    append_callbacks = new_append_callbacks(module, make_args, 4);
    if (append_callbacks == NULL) {
        goto done;
    }
    /* send's _headers_for_send for a record whose headers were never asked for: the shared read-only empty set. */
    Py_SETREF(SLOT(record, record_offsets, 5), Py_NewRef(g_sent_empty_headers));
    PyObject *append_args[10] = {
        accumulator, topic,         g_unknown_partition, timestamp == Py_None ? now : timestamp, Py_None, value,
        g_empty_tuple, append_callbacks, now,           cluster,
    };
    appended = append_to_partition(module, append_args, 10);
    if (appended == NULL) {
        goto done;
    }
    if (appended == Py_None) {
        result = Py_NewRef(Py_None);
        goto done;
    }
    if (SLOT(appended, append_result_offsets, 1) == Py_True) {
        /* producer._wakeup_sender, without its call while its trace line is off: the sender's wakeup, which does
         * nothing while the sender's _wakeup_pending is set. */
        int woken_here = 0;
        PyObject *trace_enabled = dict_attr(producer, s_trace_enabled);
        if (trace_enabled != NULL) {
            Py_INCREF(trace_enabled);
            PyObject *on = PyObject_CallNoArgs(trace_enabled);
            Py_DECREF(trace_enabled);
            if (on == NULL) {
                goto done;
            }
            int off = on == Py_False;
            Py_DECREF(on);
            PyObject *woken_sender = off ? dict_attr(producer, s_sender) : NULL;
            if (woken_sender != NULL && woken_sender != Py_None) {
                woken_here = 1;
                PyObject *pending = dict_attr(woken_sender, s_wakeup_pending);
                if (pending == NULL && PyErr_Occurred()) {
                    goto done;
                }
                if (pending != Py_True) {
                    Py_INCREF(woken_sender);
                    PyObject *wakeup_args[1] = {woken_sender};
                    PyObject *woken =
                        PyObject_VectorcallMethod(s_wakeup, wakeup_args, 1 | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL);
                    Py_DECREF(woken_sender);
                    if (woken == NULL) {
                        goto done;
                    }
                    Py_DECREF(woken);
                }
            }
        }
        if (PyErr_Occurred()) {
            goto done;
        }
        if (!woken_here) {
            PyObject *wake_args[3] = {producer, topic, append_callbacks};
            PyObject *woken =
                PyObject_VectorcallMethod(s_wakeup_sender, wake_args, 3 | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL);
            if (woken == NULL) {
                goto done;
            }
            Py_DECREF(woken);
        }
    }
    result = Py_NewRef(SLOT(appended, append_result_offsets, 0));
done:
    Py_XDECREF(appended);
    Py_XDECREF(append_callbacks);
    Py_XDECREF(fetched);
    Py_DECREF(now);
    Py_DECREF(accumulator);
    Py_DECREF(metadata);
    Py_DECREF(record);
    Py_DECREF(producer);
    return result;
not_handled:
    if (PyErr_Occurred()) {
        return NULL;
    }
    Py_RETURN_NONE;
}

/* new_producer_record(topic, value): a ProducerRecord of the registered class as ProducerRecord(topic, value) makes
 * it (its six slots set: the topic, the value, no partition, key, timestamp or headers), without the call of its
 * __init__. */
static PyObject *
new_producer_record(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "new_producer_record takes 2 arguments");
        return NULL;
    }
    if (g_record_type == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "register_producer_record was not called");
        return NULL;
    }
    if (args[0] == Py_None) {
        PyErr_SetString(PyExc_ValueError, "Topic cannot be null.");
        return NULL;
    }
    PyTypeObject *type = (PyTypeObject *)g_record_type;
    PyObject *record = type->tp_alloc(type, 0);
    if (record == NULL) {
        return NULL;
    }
    /* record_slot_names' order: topic, partition, key, value, timestamp, _headers. */
    PyObject *values[RECORD_SLOTS] = {args[0], Py_None, Py_None, args[1], Py_None, Py_None};
    for (int i = 0; i < RECORD_SLOTS; i++) {
        SLOT(record, record_offsets, i) = Py_NewRef(values[i]);
    }
    return record;
}

/* ---- An instance of a registered slotted class made without its __init__ (new_slotted) --------------------------- */

/* The classes given to register_new_slotted: whose __init__ only sets these slots from its arguments, in order. */
#define SLOTTED_CLASSES 4
#define SLOTTED_FIELDS 8
static struct {
    PyObject *type;
    int count;
    Py_ssize_t offsets[SLOTTED_FIELDS];
} slotted_classes[SLOTTED_CLASSES];

/* register_new_slotted(type, names): lets new_slotted make `type` with its slots `names` (a tuple of str) set. */
static PyObject *
register_new_slotted(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2 || !PyTuple_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "register_new_slotted(type, names) takes a class and a tuple of names");
        return NULL;
    }
    Py_ssize_t count = PyTuple_GET_SIZE(args[1]);
    if (count > SLOTTED_FIELDS) {
        PyErr_SetString(PyExc_ValueError, "register_new_slotted: too many slots");
        return NULL;
    }
    const char *names[SLOTTED_FIELDS];
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *name = PyTuple_GET_ITEM(args[1], i);
        if (!PyUnicode_Check(name) || (names[i] = PyUnicode_AsUTF8(name)) == NULL) {
            if (!PyErr_Occurred()) {
                PyErr_SetString(PyExc_TypeError, "register_new_slotted: the names are str");
            }
            return NULL;
        }
    }
    Py_ssize_t offsets[SLOTTED_FIELDS];
    if (slot_offsets(args[0], names, (int)count, offsets) < 0) {
        return NULL;
    }
    int free_entry = -1;
    for (int i = 0; i < SLOTTED_CLASSES; i++) {
        if (slotted_classes[i].type == args[0]) {
            free_entry = i;
            break;
        }
        if (slotted_classes[i].type == NULL && free_entry < 0) {
            free_entry = i;
        }
    }
    if (free_entry < 0) {
        PyErr_SetString(PyExc_RuntimeError, "register_new_slotted: no room for another class");
        return NULL;
    }
    Py_XSETREF(slotted_classes[free_entry].type, Py_NewRef(args[0]));
    slotted_classes[free_entry].count = (int)count;
    memcpy(slotted_classes[free_entry].offsets, offsets, (size_t)count * sizeof *offsets);
    Py_RETURN_NONE;
}

/* new_slotted(type, *values): an instance of a class given to register_new_slotted with its slots set to `values`, as
 * its __init__ would set them, without the call. */
static PyObject *
new_slotted(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs < 1) {
        PyErr_SetString(PyExc_TypeError, "new_slotted takes a class");
        return NULL;
    }
    for (int i = 0; i < SLOTTED_CLASSES; i++) {
        if (slotted_classes[i].type != NULL && slotted_classes[i].type == args[0]) {
            if (nargs - 1 != slotted_classes[i].count) {
                PyErr_Format(PyExc_TypeError, "new_slotted: %R takes %d values", args[0], slotted_classes[i].count);
                return NULL;
            }
            PyTypeObject *type = (PyTypeObject *)args[0];
            PyObject *obj = type->tp_alloc(type, 0);
            if (obj == NULL) {
                return NULL;
            }
            for (Py_ssize_t j = 0; j < nargs - 1; j++) {
                *(PyObject **)((char *)obj + slotted_classes[i].offsets[j]) = Py_NewRef(args[j + 1]);
            }
            return obj;
        }
    }
    PyErr_Format(PyExc_TypeError, "new_slotted: %R was not registered", args[0]);
    return NULL;
}

/* ---- The producer perf tool's random payload --------------------------------------------------------------------- */

/* MT19937, the generator of Python's random module: its 624-word state and position, as random.Random.getstate()
 * gives them (the state's version 3: 624 words and the index), and the payload size. */
#define MT_N 624
#define MT_M 397
typedef struct {
    uint32_t mt[MT_N];
    int64_t index;
    int64_t size;
} letters_state_t;

static uint32_t
mt_next(letters_state_t *s)
{
    static const uint32_t mag01[2] = {0U, 0x9908b0dfU};
    uint32_t y;
    if (s->index >= MT_N) {
        int k;
        for (k = 0; k < MT_N - MT_M; k++) {
            y = (s->mt[k] & 0x80000000U) | (s->mt[k + 1] & 0x7fffffffU);
            s->mt[k] = s->mt[k + MT_M] ^ (y >> 1) ^ mag01[y & 1U];
        }
        for (; k < MT_N - 1; k++) {
            y = (s->mt[k] & 0x80000000U) | (s->mt[k + 1] & 0x7fffffffU);
            s->mt[k] = s->mt[k + (MT_M - MT_N)] ^ (y >> 1) ^ mag01[y & 1U];
        }
        y = (s->mt[MT_N - 1] & 0x80000000U) | (s->mt[0] & 0x7fffffffU);
        s->mt[MT_N - 1] = s->mt[MT_M - 1] ^ (y >> 1) ^ mag01[y & 1U];
        s->index = 0;
    }
    y = s->mt[s->index++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= y >> 18;
    return y;
}

/* random_letters_state(rng, size): a bytearray holding a copy of rng's generator state and the payload size. */
static PyObject *
random_letters_state(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "random_letters_state takes 2 arguments");
        return NULL;
    }
    Py_ssize_t size = PyLong_AsSsize_t(args[1]);
    if (size == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (size < 0 || size > PY_SSIZE_T_MAX / 8) {
        PyErr_SetString(PyExc_ValueError, "random_letters_state: the size is out of range");
        return NULL;
    }
    PyObject *state = PyObject_CallMethod(args[0], "getstate", NULL);
    if (state == NULL) {
        return NULL;
    }
    PyObject *result = NULL, *words;
    if (!PyTuple_Check(state) || PyTuple_GET_SIZE(state) != 3 || !PyTuple_Check(words = PyTuple_GET_ITEM(state, 1)) ||
        PyTuple_GET_SIZE(words) != MT_N + 1) {
        PyErr_SetString(PyExc_ValueError, "random_letters_state: not a Mersenne Twister state");
        goto done;
    }
    letters_state_t st;
    memset(&st, 0, sizeof st);
    for (Py_ssize_t i = 0; i < MT_N; i++) {
        unsigned long w = PyLong_AsUnsignedLong(PyTuple_GET_ITEM(words, i));
        if (w == (unsigned long)-1 && PyErr_Occurred()) {
            goto done;
        }
        if (w > 0xffffffffUL) {
            PyErr_SetString(PyExc_ValueError, "random_letters_state: a state word is out of range");
            goto done;
        }
        st.mt[i] = (uint32_t)w;
    }
    long index = PyLong_AsLong(PyTuple_GET_ITEM(words, MT_N));
    if (index == -1 && PyErr_Occurred()) {
        goto done;
    }
    if (index < 0 || index > MT_N) {
        PyErr_SetString(PyExc_ValueError, "random_letters_state: the state's index is out of range");
        goto done;
    }
    st.index = index;
    st.size = size;
    result = PyByteArray_FromStringAndSize((const char *)&st, sizeof st);
done:
    Py_DECREF(state);
    return result;
}

/* random_letters(state): the next payload, as rng.getrandbits(8 * size).to_bytes(size, "little") mapped to letters
 * (getrandbits fills its number from the least significant 32-bit word up, keeping the top bits of the last word). */
static PyObject *
random_letters(PyObject *module, PyObject *arg)
{
    if (!PyByteArray_CheckExact(arg) || PyByteArray_GET_SIZE(arg) != (Py_ssize_t)sizeof(letters_state_t)) {
        PyErr_SetString(PyExc_TypeError, "random_letters takes the state random_letters_state made");
        return NULL;
    }
    letters_state_t *st = (letters_state_t *)PyByteArray_AS_STRING(arg);
    if (st->index < 0 || st->index > MT_N || st->size < 0) {
        PyErr_SetString(PyExc_ValueError, "random_letters: a damaged state");
        return NULL;
    }
    Py_ssize_t size = (Py_ssize_t)st->size;
    PyObject *out = PyBytes_FromStringAndSize(NULL, size);
    if (out == NULL) {
        return NULL;
    }
    static unsigned char letters[256];
    if (letters[0] == 0) {
        for (int b = 0; b < 256; b++) {
            letters[b] = (unsigned char)(65 + b % 26);
        }
    }
    unsigned char *p = (unsigned char *)PyBytes_AS_STRING(out);
    Py_ssize_t i = 0;
    for (; i + 4 <= size; i += 4) {
        uint32_t r = mt_next(st);
        p[i] = letters[r & 0xff];
        p[i + 1] = letters[(r >> 8) & 0xff];
        p[i + 2] = letters[(r >> 16) & 0xff];
        p[i + 3] = letters[r >> 24];
    }
    if (i < size) {
        uint32_t r = mt_next(st) >> (32 - 8 * (size - i));
        for (; i < size; i++, r >>= 8) {
            p[i] = letters[r & 0xff];
        }
    }
    return out;
}

static PyMethodDef methods[] = {
    {"write_record", (PyCFunction)(void (*)(void))write_record, METH_FASTCALL,
     "Appends one v2 record to a bytearray if it fits `room`; returns its size, -1 if not, None if out of range."},
    {"register_producer_batch", (PyCFunction)(void (*)(void))register_producer_batch, METH_FASTCALL,
     "register_producer_batch(fallback, future_type, compression_none, time): what append_to_batch needs."},
    {"append_to_batch", (PyCFunction)(void (*)(void))append_to_batch, METH_FASTCALL,
     "append_to_batch(batch, timestamp, key, value, headers, callback, now): (future, is_full), None without room."},
    {"register_append_callbacks", (PyCFunction)register_append_callbacks, METH_O,
     "register_append_callbacks(type): KafkaProducer's AppendCallbacks, which fire_callbacks sees through."},
    {"new_append_callbacks", (PyCFunction)(void (*)(void))new_append_callbacks, METH_FASTCALL,
     "new_append_callbacks(user_callback, interceptors, topic, record_partition): a registered AppendCallbacks."},
    {"register_append_result", (PyCFunction)register_append_result, METH_O,
     "register_append_result(type): RecordAccumulator's RecordAppendResult, made by append_to_last_batch."},
    {"append_to_last_batch", (PyCFunction)(void (*)(void))append_to_last_batch, METH_FASTCALL,
     "append_to_last_batch(dq, timestamp, key, value, headers, callback, now): a RecordAppendResult, or None."},
    {"register_producer_record", (PyCFunction)register_producer_record, METH_O,
     "register_producer_record(type): ProducerRecord, whose slots set_record_slots sets."},
    {"set_record_slots", (PyCFunction)(void (*)(void))set_record_slots, METH_FASTCALL,
     "set_record_slots(record, topic, partition, key, value, timestamp, headers): a ProducerRecord's six slots."},
    {"register_accumulator", (PyCFunction)(void (*)(void))register_accumulator, METH_FASTCALL,
     "register_accumulator(topic_info_type, sticky_partition_info_type): what append_to_partition needs."},
    {"append_to_partition", (PyCFunction)(void (*)(void))append_to_partition, METH_FASTCALL,
     "append_to_partition(accumulator, topic, partition, timestamp, key, value, headers, callbacks, now, cluster): "
     "a RecordAppendResult, or None when RecordAccumulator.append is to be called."},
    {"new_producer_record", (PyCFunction)(void (*)(void))new_producer_record, METH_FASTCALL,
     "new_producer_record(topic, value): ProducerRecord(topic, value), without the call of its __init__."},
    {"register_send", (PyCFunction)(void (*)(void))register_send, METH_FASTCALL,
     "register_send(callback_types, sent_empty_headers, record_size_margin): what send_common needs."},
    {"send_common", (PyCFunction)(void (*)(void))send_common, METH_FASTCALL,
     "send_common(producer, record, callback): the record's future, or None when KafkaProducer.send is to run."},
    {"fire_callbacks", (PyCFunction)(void (*)(void))fire_callbacks, METH_FASTCALL,
     "fire_callbacks(callbacks, futures, produce_future, tp, base_offset, log_append_time, on_error): a successful "
     "batch's callbacks, in order."},
    {"register_new_slotted", (PyCFunction)(void (*)(void))register_new_slotted, METH_FASTCALL,
     "register_new_slotted(type, names): lets new_slotted make the class with these slots set, in order."},
    {"new_slotted", (PyCFunction)(void (*)(void))new_slotted, METH_FASTCALL,
     "new_slotted(type, *values): an instance of a registered class with its slots set, without its __init__."},
    {"random_letters_state", (PyCFunction)(void (*)(void))random_letters_state, METH_FASTCALL,
     "random_letters_state(rng, size): a copy of the random.Random's generator state for random_letters."},
    {"random_letters", (PyCFunction)random_letters, METH_O,
     "random_letters(state): rng.getrandbits(8 * size).to_bytes(size, 'little') as uppercase letters (65 + b % 26)."},
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
