from django.contrib import admin

from papers.models import Authorship, Citation, Paper


class AuthorshipInline(admin.TabularInline):
    model = Authorship
    fields = ["position", "name", "researcher"]
    raw_id_fields = ["researcher"]
    extra = 0


@admin.register(Paper)
class PaperAdmin(admin.ModelAdmin):
    list_display = ["arxiv_id", "title", "primary_category", "published", "cited_by_count", "has_embedding"]
    list_filter = ["primary_category", "published"]
    search_fields = ["arxiv_id", "title", "doi", "openalex_id", "s2_id"]
    readonly_fields = ["created_at", "updated_at", "citations_refreshed_at"]
    date_hierarchy = "published"
    inlines = [AuthorshipInline]
    show_full_result_count = False

    @admin.display(boolean=True, description="embedded")
    def has_embedding(self, paper: Paper) -> bool:
        return paper.embedding is not None


@admin.register(Authorship)
class AuthorshipAdmin(admin.ModelAdmin):
    list_display = ["name", "position", "paper", "researcher"]
    search_fields = ["name", "paper__arxiv_id"]
    raw_id_fields = ["paper", "researcher"]
    list_select_related = ["paper", "researcher"]
    show_full_result_count = False


@admin.register(Citation)
class CitationAdmin(admin.ModelAdmin):
    list_display = ["citing", "cited", "created_at"]
    search_fields = ["citing__arxiv_id", "cited__arxiv_id"]
    raw_id_fields = ["citing", "cited"]
    list_select_related = ["citing", "cited"]
    show_full_result_count = False
