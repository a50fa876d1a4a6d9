"""The site's own pages: home, about, contact, privacy, developers, the error pages, the health checks,
robots.txt, llms.txt and the sitemap index that points at every app's sitemap."""
