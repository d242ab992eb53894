"""The content: the drill, the casebook and the GPU measurements, as data read and classified.

``drill`` holds the eight incidents and Part B with their derived verdicts; ``casebook`` the published
cases read as their authors did; ``measured`` the points measured on a real GPU.

May import: errors, resources, catalogue, model, judgment.
"""
