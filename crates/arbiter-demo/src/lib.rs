//! Generates the demo data: an ASTC championship and a GTHSCL season in progress.
