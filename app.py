"""KG Scout web app: `python app.py [--kg FILE_OR_URL] [--corpus DIR] [--port N] [--host H] [config flags]`."""

from __future__ import annotations

import argparse
import logging
import os

from engine.config import add_config_flags, config_from_args
from engine.scout import Scout
from kg_adapters.base import KGError


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--kg", help="file or SPARQL endpoint URL opened at start (default: the geography KG)")
    parser.add_argument("--corpus", help="exploration corpus folder for --kg (default: the KG's own)")
    parser.add_argument("--port", type=int, default=int(os.environ.get("GRADIO_SERVER_PORT", 7860)))
    parser.add_argument("--host", default=os.environ.get("GRADIO_SERVER_NAME", "127.0.0.1"))
    parser.add_argument("--no-preload", dest="preload", action="store_false",
                        help="load the models on the first question instead of right after start")
    add_config_flags(parser)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")

    import ui

    scout = Scout(config_from_args(args))
    try:
        demo = ui.build(scout, kg=args.kg, corpus=args.corpus, preload=args.preload)
    except KGError as err:  # a bad --kg: say why, without a traceback
        parser.exit(2, f"kgscout: cannot open {args.kg or 'the default KG'}: {err}\n")
    demo.launch(server_name=args.host, server_port=args.port, **ui.launch_options(scout))


if __name__ == "__main__":
    main()
