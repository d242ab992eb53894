"""Profiler traces in, a regime out: the Chrome trace format that ``torch.profiler`` (Kineto) and ROCm write.

``events`` reads a trace (JSON, plain or gzipped) into GPU spans, host calls, CPU ops and steps;
``timeline`` measures what the GPU did over the window (busy share, gaps, host syncs, exposed
collectives, steps); ``ops`` places each recorded op on the card's roofline from its shapes;
``reading`` turns those facts into a symptoms object and lets the classifier decide; ``picture``
draws the GPU's timeline and the top ops on the card's roofline. Never the grader, the drill or the edges.

May import: errors, resources, catalogue, model, judgment.
"""
