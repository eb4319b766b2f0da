#!/usr/bin/env python3
"""desync_view.py: the desync_view command line run in place, without installing anything
(`pip install ./tools` installs the same as `desync-view`). Subcommands, options and exit
status: tools/desync/cli.py, or `desync_view.py --help`."""
import os
import sys

# the package tools/desync/ sits next to this file: importable from any working directory
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
try:
    from desync.cli import main
except ImportError as _exc:  # the interpreter lacks numpy/h5py
    sys.exit("desync_view.py: error: %s; this tool needs numpy, scipy, h5py and matplotlib "
             "(on Debian: apt install python3-scipy python3-h5py python3-matplotlib, run with /usr/bin/python3)"
             % _exc)

if __name__ == "__main__":
    sys.exit(main())
