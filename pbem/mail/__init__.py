"""Mail in and out: parsing, composing, Maildir, IMAP, SMTP."""
