#!/usr/bin/env bash
# Install TenFlang with its test dependencies into ./.venv and run the whole suite.
# cupy (the 'gpu' extra) is installed only where an NVIDIA driver is loaded (the paths
# tenflang/interp/device.py looks for): elsewhere the GPU tests skip, saying why (-rs),
# and the CUDA kernels still compile to PTX through the NVRTC wheel of the 'test' extra.
set -euo pipefail
cd "$(dirname "$0")/.."
extras=test
if [ -e /proc/driver/nvidia ] || [ -e /dev/nvidiactl ] || [ -e /dev/dxg ]; then
    extras=test,gpu
fi
python3 -m venv .venv
.venv/bin/pip install --quiet --disable-pip-version-check ".[$extras]"
exec .venv/bin/python -m pytest -q -rs "$@"
