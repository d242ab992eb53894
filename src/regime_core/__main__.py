"""``python -m regime_core``."""

import sys

from regime_core.cli import main

sys.exit(main())
