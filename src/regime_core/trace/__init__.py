"""Profiler traces in, a regime out: the Chrome trace format that ``torch.profiler`` (Kineto) and ROCm write.

``events`` reads a trace (JSON, plain or gzipped) into GPU spans, host calls, CPU ops and steps;
``timeline`` measures what the GPU did over the window (busy share, gaps, host syncs, exposed
collectives, steps); ``ops`` places each recorded op on the card's roofline from its shapes;
``reading`` turns those facts into a symptoms object and lets the classifier decide. This package
may import the layers below it (quantities, cards, work models, symptoms and the classifier), never the
grader, the drill or the edges (bridge, command line).
"""
