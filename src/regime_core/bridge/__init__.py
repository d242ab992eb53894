"""The bridge: the JSON contract the browser widgets call, one request in and one response out.

``protocol`` declares every op, its fields and the bridge's version; ``api`` answers them, with the
practice and trace ops in ``practice_ops`` and ``trace_ops``. An edge: nothing below imports it.

May import: errors, resources, catalogue, model, judgment, content, trace, grading, practice.
"""
