from django.contrib import admin

from harvest.models import HarvestRun


@admin.register(HarvestRun)
class HarvestRunAdmin(admin.ModelAdmin):
    list_display = ["id", "source", "state", "started_at", "finished_at", "created_count", "updated_count",
                    "skipped_count", "error_count"]  # fmt: skip
    list_filter = ["source", "state"]
    readonly_fields = [field.name for field in HarvestRun._meta.fields]

    @admin.display(description="errors")
    def error_count(self, run: HarvestRun) -> int:
        return len(run.errors)
