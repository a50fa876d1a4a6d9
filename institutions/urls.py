from django.urls import path, re_path

from core.sitemaps import sitemap_section
from institutions import views
from institutions.feeds import InstitutionFeed
from institutions.sitemaps import InstitutionSitemap

app_name = "institutions"

urlpatterns = [
    path("institutions", views.institution_index, name="index"),
    path("rss/institutions/<int:institution_id>.xml", InstitutionFeed(), name="feed"),
    path("sitemaps/institutions.xml", sitemap_section, {"sitemap_class": InstitutionSitemap}, name="sitemap"),
    # A bare ROR id first: it may be all digits, which the id patterns would take (ROR ids start with 0).
    re_path(r"^institutions/(?P<key>0[a-z0-9]{6}[0-9]{2})$", views.institution_resolve, name="by-ror-id"),
    path("institutions/<int:institution_id>-<slug:slug>", views.institution_detail, name="detail"),
    path("institutions/<int:institution_id>", views.institution_detail, name="by-id"),
    path("institutions/<int:institution_id>/card.png", views.institution_card_image, name="card"),
    # A ROR id (042nb2s44), a ROR URL (https://ror.org/042nb2s44) or an exact name.
    path("institutions/<path:key>", views.institution_resolve, name="resolve"),
]
