"""``python -m reports.cli``: the same as ``rumsim``."""

import sys

from reports.cli import main

sys.exit(main())
