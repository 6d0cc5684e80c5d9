"""The application: the ``Engine`` (re-exported by ``engine``) and the classes it is made
of: the store it opens and the state it loads, its reads, members' access and its
secrets, and how a server learns that the store changed."""
