from typing import Any

from django.core.management.base import BaseCommand

from harvest.identity_report import (
    NAMES_FOLLOWED,
    demo_regrouped,
    openalex_b_cubed,
    researchers_per_common_name,
    same_name_pairwise,
)


class Command(BaseCommand):
    help = (
        "How well researchers grouped from names match real people, before the weaker evidence (shared "
        "co-authors and printed affiliations only) and after it (fields, years, the papers' meaning, "
        "co-authors who wrote together, rare names): B³ precision and recall on 200 OpenAlex works with "
        "their author ids hidden, pairwise precision and recall on the hand-judged same-name pairs of the "
        "demo corpus, and the researchers per common name. Everything is grouped again and rolled back; "
        "the stored researchers are scored as they are too."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        for label, weak_evidence in (("before", False), ("after", True)):
            b3 = openalex_b_cubed(weak_evidence=weak_evidence)
            self.stdout.write(
                f"{label}: OpenAlex works, B³ over {b3.items} authorships: "
                f"precision {b3.precision:.3f}, recall {b3.recall:.3f}"
            )
        stored = same_name_pairwise()
        before, after = demo_regrouped(weak_evidence=False), demo_regrouped(weak_evidence=True)
        for label, pairs in (("stored", stored), ("before", before.pairs), ("after", after.pairs)):
            self.stdout.write(
                f"{label}: same-name pairs judged by hand, {pairs.items} found here: "
                f"precision {pairs.precision:.3f}, recall {pairs.recall:.3f}"
            )
        common = [name for name, _count in researchers_per_common_name()]
        shown = [*NAMES_FOLLOWED, *(name for name in common if name not in NAMES_FOLLOWED)]
        per_name = ", ".join(
            f"{name} {before.researchers_per_name.get(name, 0)} → {after.researchers_per_name.get(name, 0)}"
            for name in shown
        )
        self.stdout.write(f"researchers per common name, before → after: {per_name}")
