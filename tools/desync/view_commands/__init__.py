"""The subcommands of `desync-view` (tools/desync_view.py), one module each, named after the
subcommand (plan-plot: plan_plot.py). Each module has register(subparsers), which adds its
argparse sub-parser with run(args) as its function, and run(args), which calls the analysis
modules of the package (they return data) and prints the text; cli.py lists them in order.
options.py holds the options several subcommands share (the rank, iteration and time windows)."""
