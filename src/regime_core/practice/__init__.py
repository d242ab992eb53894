"""Practice: new incidents generated from a seed, and graded like the drill's.

``generate`` draws an incident for a seed and level from the families (``families``, ``edge``,
``idle``), built on a realistic run (``draw``) and written in the drill's voice (``text``); ``grade``
grades an attempt at one with the grading layer's readers.

May import: errors, resources, catalogue, model, judgment, content, grading.
"""
