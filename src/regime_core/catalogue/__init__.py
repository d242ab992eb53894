"""The catalogue: what the core knows before it sees a problem.

Quantities and their units (``quantity``), the hardware cards with their cited peaks and bandwidth
(``hardware``), and the levers each regime allows (``levers``), each read from its data file. The
lowest layer above the foundation.

May import: errors, resources.
"""
