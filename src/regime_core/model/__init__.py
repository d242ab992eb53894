"""The model: the work a kernel does and where it sits on a card's roofline.

``work`` counts a kernel's FLOPs and bytes from its shapes; ``roofline`` computes the ridge and places
the work against it: arithmetic, no judgment yet.

May import: errors, resources, catalogue.
"""
