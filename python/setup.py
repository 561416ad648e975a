"""Install the onnxcost module: pip install ./python (Debian's python3-venv,
python3-setuptools; no network).  The shared library is copied into the
package when it is found: $ONNXCOST_LIBRARY, else ../build/libonnxcost.so.0
(a build of this checkout); without one the module looks for it at run time
(the build tree, then the system's loader)."""

import os
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
SONAME = "libonnxcost.so.0"


def find_library():
    env = os.environ.get("ONNXCOST_LIBRARY")
    if env:
        if not os.path.isfile(env):
            raise SystemExit(f"ONNXCOST_LIBRARY={env}: no such file")
        return env
    built = os.path.join(os.path.dirname(HERE), "build", SONAME)
    return built if os.path.isfile(built) else None


class BuildWithLibrary(build_py):
    def run(self):
        super().run()
        lib = find_library()
        if lib and not self.dry_run:
            dest = os.path.join(self.build_lib, "onnxcost", SONAME)
            shutil.copyfile(lib, dest)
            os.chmod(dest, 0o755)


setup(
    name="onnxcost",
    version="0.1.0",
    description="Predict the run time of ONNX models (ctypes over libonnxcost)",
    packages=["onnxcost"],
    python_requires=">=3.8",
    cmdclass={"build_py": BuildWithLibrary},
    zip_safe=False,
)
