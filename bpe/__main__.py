"""python -m bpe: the same as the ``bpe`` command."""

import sys

from .scale.cli import main

sys.exit(main())
