//! The HTTP server: HTML pages readable without JavaScript, and the JSON API at /api/v1.
