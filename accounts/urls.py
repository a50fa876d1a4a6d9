from django.urls import path

from accounts.feeds import FollowingFeed, SavedSearchFeed
from accounts.views import account, auth, following, searches

app_name = "accounts"

urlpatterns = [
    path("accounts/sign-up", auth.sign_up, name="sign-up"),
    path("accounts/sign-up/sent", auth.sign_up_sent, name="sign-up-sent"),
    path("accounts/confirm/<str:uidb64>/<str:token>", auth.confirm, name="confirm"),
    path("accounts/sign-in", auth.sign_in, name="sign-in"),
    path("accounts/sign-out", auth.sign_out, name="sign-out"),
    path("accounts/password-reset", auth.password_reset, name="password-reset"),
    path("accounts/password-reset/sent", auth.password_reset_sent, name="password-reset-sent"),
    path(
        "accounts/password-reset/<str:uidb64>/<str:token>",
        auth.password_reset_confirm,
        name="password-reset-confirm",
    ),
    path("account", account.account, name="account"),
    path("account/onboarding", account.onboarding, name="onboarding"),
    path("account/onboarding/researchers", account.onboarding_researchers, name="onboarding-researchers"),
    path("account/digest", account.digest_settings, name="digest-settings"),
    path("account/feeds/rotate", account.feed_token_rotate, name="feed-rotate"),
    path("account/feeds/<str:token>/following.xml", FollowingFeed(), name="feed-following"),
    path(
        "account/feeds/<str:token>/searches/<int:saved_search_id>.xml",
        SavedSearchFeed(),
        name="feed-saved-search",
    ),
    path("account/delete", account.delete, name="delete"),
    path("account/unsubscribe/<str:token>", account.unsubscribe, name="unsubscribe"),
    path("account/saved-searches/new", searches.saved_search_new, name="saved-search-new"),
    path(
        "account/saved-searches/<int:saved_search_id>/delete",
        searches.saved_search_delete,
        name="saved-search-delete",
    ),
    path(
        "account/saved-searches/<int:saved_search_id>/alerts",
        searches.saved_search_alerts,
        name="saved-search-alerts",
    ),
    path("following", following.following, name="following"),
    path("following/<int:researcher_id>/follow", following.follow, name="follow"),
    path("following/<int:researcher_id>/unfollow", following.unfollow, name="unfollow"),
]
