"""Accounts: sign-up, sign-in and password resets with Django's auth (the e-mail is the username), following
researchers, saved searches, private feeds and e-mail digests."""
