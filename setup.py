"""pip install --no-build-isolation .  installs the Python package rlsim (python/rlsim/), its module
built by CMake as tools/setup builds rlsim (into build/, or $RLSIM_BUILD_DIR), for the interpreter
pip runs under. Needs Debian's python3-setuptools and python3-pip, and what tools/setup installs.
The installed package reads rlsim's catalogs from this clone (RLSIM_DATA_DIR moves them)."""

import os
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        source = os.path.dirname(os.path.abspath(__file__))
        build = os.path.abspath(os.environ.get("RLSIM_BUILD_DIR", os.path.join(source, "build")))
        # A virtual environment's base interpreter: the module is the same, and build/ keeps the one
        # its tests run with.
        python = getattr(sys, "_base_executable", sys.executable)
        subprocess.check_call(["cmake", "-S", source, "-B", build, "-DCMAKE_BUILD_TYPE=Release",
                               f"-DPython3_EXECUTABLE={python}"])
        subprocess.check_call(["cmake", "--build", build, "--target", "_rlsim", "-j", str(os.cpu_count() or 2)])
        folder = os.path.join(build, "python", "rlsim")
        built = next(f for f in os.listdir(folder) if f.startswith("_rlsim") and f.endswith(".so"))
        target = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(os.path.join(folder, built), target)


setup(
    name="rlsim",
    version="0.1.0",
    description="Discrete-event simulator of GPU clusters running RL post-training of LLMs",
    license="Apache-2.0",
    package_dir={"": "python"},
    packages=["rlsim"],
    ext_modules=[Extension("rlsim._rlsim", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    python_requires=">=3.9",
)
