"""``python -m patience_gym.train``: the trainer's command line (cli.py)."""

from .cli import main

raise SystemExit(main())
