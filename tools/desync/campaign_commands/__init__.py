"""The subcommands of `desync-campaign` (tools/desync_campaign.py), one module each, named after
the subcommand (list: list_points.py). Each module has register(subparsers), which adds its
argparse sub-parser with run(args, campaign) as its function, and run, which calls the campaign
modules of the package (campaign*.py: they return data) and prints the text; campaign_cli.py lists
them in order. options.py holds the arguments they share."""
