"""Grading: a learner's write-up checked against the drill's acceptance, line by line.

``attempt`` parses the write-up; ``language`` and ``answer_lines`` read one line; ``claims`` checks what
each number in an evidence line claims; ``argument`` reads Part C; ``grade`` puts the criteria
together; ``writeup`` and ``review`` turn work into Markdown for a mentor or a pull request.

May import: errors, resources, catalogue, model, judgment, content.
"""
