"""The accounts app's views, by concern: auth (sign-up, sign-in, resets), account (the account page,
onboarding, settings, deletion), following (follow and /following), searches (saved searches)."""
