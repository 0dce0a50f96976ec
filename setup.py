"""The project's one compiled module, optional: setup.cfg holds everything else.

`kafka.clients.consumer.internals._fetched_batch_decoder` is the consumer's record-decoding loop in C. It is built
from source at install time where a C compiler and Python's headers are found; where the build fails the install
goes on and the consumer uses the same loop in Python (fetched_batch_decoder selects it by itself). In a working
tree: `python setup.py build_ext --inplace`.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "kafka.clients.consumer.internals._fetched_batch_decoder",
            ["clients/kafka/clients/consumer/internals/_fetched_batch_decoder.c"],
            optional=True,
        ),
        Extension(
            "kafka.common.record._default_record_writer",
            ["clients/kafka/common/record/_default_record_writer.c"],
            optional=True,
        ),
    ]
)
