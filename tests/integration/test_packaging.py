"""The project installs as one `kafka` import root from core/ and clients/, and the bin scripts find their
interpreter as the README says."""

from __future__ import annotations

import configparser
import os
import shutil
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _packages_on_disk() -> set[str]:
    found = {"kafka"}
    for src in ("core", "clients", "spark"):
        base = ROOT / src
        for init in base.rglob("__init__.py"):
            found.add(".".join(init.parent.relative_to(base).parts))
    return found


def test_setup_cfg_lists_every_package() -> None:
    """setup.cfg names every package under core/, clients/ and spark/ (it cannot discover several roots by itself)."""
    cfg = configparser.ConfigParser()
    cfg.read(ROOT / "setup.cfg")
    listed = {p.strip() for p in cfg["options"]["packages"].split() if p.strip()}
    assert listed == _packages_on_disk()


def test_wheel_installs_and_imports(tmp_path: Path) -> None:
    """A wheel built from the checkout holds both source folders and the .spec files, and imports in a clean venv."""
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "-q",
            "--no-deps",
            "--no-build-isolation",
            "-w",
            str(tmp_path),
            str(ROOT),
        ],
        check=True,
        cwd=tmp_path,
    )
    (wheel,) = tmp_path.glob("kafka_port-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "kafka/common/protocol/types.py" in names
    assert "kafka/common/message/specs/ProduceRequest.spec" in names
    assert "kafka/server/__init__.py" in names
    # PySpark's discovery lists site-packages: the module is at the wheel's root; the editable build's command is not.
    assert "pyspark_kafka_port.py" in names
    assert "_kafka_port_editable_wheel.py" not in names
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    py = env_dir / "bin" / "python"
    subprocess.run([str(py), "-m", "pip", "install", "-q", "--no-deps", str(wheel)], check=True)
    out = subprocess.run(
        [str(py), "-c", "from kafka.common.protocol.api_keys import ApiKeys; import kafka.server; print(len(ApiKeys))"],
        check=True,
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert out.stdout.strip() == "62"


def test_editable_install_is_listed_for_pyspark(tmp_path: Path) -> None:
    """An editable install lists pyspark_kafka_port among the top-level modules, as PySpark's data source lookup
    (pkgutil.iter_modules over sys.path) needs, with no step but the install: its wheel carries a .pth file naming
    spark/discovery. Built from a copy of the checkout, so that the build's in-place extensions stay out of it."""
    source = tmp_path / "source"
    shutil.copytree(
        ROOT,
        source,
        ignore=shutil.ignore_patterns(
            ".git", ".venv*", "build", "dist", "__pycache__", "*.so", "*.egg-info", ".*cache", ".benchmarks", "logs"
        ),
    )
    out_dir = tmp_path / "wheel"
    out_dir.mkdir()
    subprocess.run(
        [sys.executable, "-c", f"from setuptools import build_meta; build_meta.build_editable({str(out_dir)!r})"],
        check=True,
        cwd=source,
        capture_output=True,
    )
    (wheel,) = out_dir.glob("kafka_port-*.whl")
    pth = zipfile.ZipFile(wheel).read("kafka_port_spark_discovery.pth").decode()
    assert Path(pth.strip()) == (source / "spark" / "discovery").resolve()
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    py = env_dir / "bin" / "python"
    subprocess.run([str(py), "-m", "pip", "install", "-q", "--no-deps", str(wheel)], check=True)
    listed = subprocess.run(
        [
            str(py),
            "-c",
            "import pkgutil; print(sorted(m.name for m in pkgutil.iter_modules() if m.name[:8] == 'pyspark_'))",
        ],
        check=True,
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert listed.stdout.strip() == "['pyspark_kafka_port']"


def test_run_class_uses_kafka_python(tmp_path: Path) -> None:
    """bin/kafka-run-class.sh runs $KAFKA_PYTHON when set, else the checkout's .venv, else python3."""
    fake = tmp_path / "fakepython"
    fake.write_text('#!/bin/sh\necho "fake python $@"\n')
    fake.chmod(0o755)
    env = dict(os.environ, KAFKA_PYTHON=str(fake))
    out = subprocess.run(
        [str(ROOT / "bin" / "kafka-run-class.sh"), "kafka.tools.DumpLogSegments", "--files", "x"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.startswith("fake python -c")
    assert "kafka.tools.DumpLogSegments --files x" in out.stdout
    env.pop("KAFKA_PYTHON")
    module = tmp_path / "kafka_probe"
    module.mkdir()
    (module / "__init__.py").write_text("")
    (module / "hello_world.py").write_text(
        "import sys\ndef main():\n    print(sys.executable, *sys.argv)\n    return 3\n"
    )
    env["PYTHONPATH"] = str(tmp_path)
    done = subprocess.run(
        [str(ROOT / "bin" / "kafka-run-class.sh"), "kafka_probe.HelloWorld", "a"],
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 3
    expected = ROOT / ".venv" / "bin" / "python"
    assert done.stdout.split()[0] == (str(expected) if expected.exists() else done.stdout.split()[0])
    assert done.stdout.split()[1:] == ["kafka_probe.HelloWorld", "a"]
