from django.contrib import admin

from researchers.models import Researcher, ResearcherRedirect


@admin.register(Researcher)
class ResearcherAdmin(admin.ModelAdmin):
    list_display = [
        "display_name",
        "h_index",
        "citation_count",
        "works_count",
        "openalex_id",
        "s2_id",
        "orcid",
    ]
    search_fields = ["display_name", "normalised_name", "openalex_id", "s2_id", "orcid"]
    list_filter = [("openalex_id", admin.EmptyFieldListFilter), ("s2_id", admin.EmptyFieldListFilter)]
    readonly_fields = ["created_at", "updated_at", "metrics_refreshed_at"]
    show_full_result_count = False


@admin.register(ResearcherRedirect)
class ResearcherRedirectAdmin(admin.ModelAdmin):
    list_display = ["old_id", "researcher", "created_at"]
    search_fields = ["old_id"]
    raw_id_fields = ["researcher"]
