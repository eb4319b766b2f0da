"""Arguments the `desync-campaign` subcommands share."""


def common(p, outdir=True, binary=False, only=False, json_out=True):
    p.add_argument("campaign", metavar="CAMPAIGN.toml")
    if outdir:
        p.add_argument("--output-dir", metavar="DIR",
                       help="where the result files are (default: [campaign] output_dir)")
    if binary:
        p.add_argument("--binary", metavar="DESYNC",
                       help="the desync binary (default: $DESYNC_BIN, [campaign] binary, desync)")
    if only:
        p.add_argument("--only", metavar="ID,ID", help="only these points")
    if json_out:
        p.add_argument("--json", metavar="OUT.json", help="also write the result as JSON")
