"""The judgment: symptoms in, a verdict out.

``symptoms`` parses what an engineer observed; ``classify`` decides the regime, or says it is
undecided and what to measure next; ``words`` phrases a verdict for a learner; ``svg`` draws the
roofline picture of a reading.

May import: errors, resources, catalogue, model.
"""
