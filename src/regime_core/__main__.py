"""``python -m regime_core``."""

import sys

from regime_core.cli.main import main

sys.exit(main())
