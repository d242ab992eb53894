"""The ``regime`` command: the core for a terminal or a review comment.

``main`` parses the subcommands and prints text or JSON; ``terminal`` keeps output safe on any
terminal (closed pipes, full disks, ASCII-only encodings). An edge: nothing below imports it.

May import: errors, resources, catalogue, model, judgment, content, trace, grading, practice.
"""
