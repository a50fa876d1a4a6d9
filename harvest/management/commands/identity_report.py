from typing import Any

from django.core.management.base import BaseCommand

from harvest.identity_report import openalex_b_cubed, researchers_per_common_name, same_name_pairwise


class Command(BaseCommand):
    help = (
        "How well researchers grouped from names match real people: B³ precision and recall on 200 OpenAlex "
        "works with their author ids hidden (stored and rolled back), pairwise precision and recall on the "
        "hand-judged same-name pairs of the demo corpus (from the stored researchers), and the researchers "
        "per common name."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        b3 = openalex_b_cubed()
        self.stdout.write(
            f"OpenAlex works, B³ over {b3.items} authorships: "
            f"precision {b3.precision:.3f}, recall {b3.recall:.3f}"
        )
        pairs = same_name_pairwise()
        self.stdout.write(
            f"same-name pairs judged by hand, {pairs.items} found here: "
            f"precision {pairs.precision:.3f}, recall {pairs.recall:.3f}"
        )
        common = ", ".join(f"{name} {count}" for name, count in researchers_per_common_name())
        self.stdout.write(f"researchers per common name: {common}")
