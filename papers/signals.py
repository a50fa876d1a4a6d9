"""What papers tell the apps that build on them, without knowing them."""

from django.dispatch import Signal

# Sent by the embedding task with `paper_ids` (the batch it was given) once their vectors are stored:
# what reads the vectors (the analysis) can follow.
papers_embedded = Signal()
