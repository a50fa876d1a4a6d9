from django.contrib import admin

from institutions.models import Affiliation, Institution


@admin.register(Institution)
class InstitutionAdmin(admin.ModelAdmin):
    list_display = ["name", "country_code", "type", "ror_id", "openalex_id"]
    list_filter = ["type", "country_code"]
    search_fields = ["name", "ror_id", "openalex_id"]


@admin.register(Affiliation)
class AffiliationAdmin(admin.ModelAdmin):
    list_display = ["researcher", "institution", "last_known"]
    list_filter = ["last_known"]
    search_fields = ["researcher__display_name", "institution__name"]
    raw_id_fields = ["researcher", "institution"]
    list_select_related = ["researcher", "institution"]
