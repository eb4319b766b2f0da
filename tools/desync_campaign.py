#!/usr/bin/env python3
"""desync_campaign.py: the desync-campaign command line run in place, without installing anything
(`pip install ./tools` installs the same as `desync-campaign`). Sweeps of a deck over axes: list,
check, run, slurm, collect, plot. Subcommands, the campaign file and exit status:
tools/desync/campaign_cli.py, tools/desync/campaign.py, or `desync_campaign.py --help`."""
import os
import sys

# the package tools/desync/ sits next to this file: importable from any working directory
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
try:
    from desync.campaign_cli import main
except ImportError as _exc:  # the interpreter lacks numpy/h5py/matplotlib
    sys.exit("desync_campaign.py: error: %s; this tool needs numpy, h5py and matplotlib "
             "(on Debian: apt install python3-h5py python3-matplotlib, run with /usr/bin/python3)"
             % _exc)

if __name__ == "__main__":
    sys.exit(main())
