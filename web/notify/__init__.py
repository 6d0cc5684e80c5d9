"""Telling members when the table waits on them (``web.notify.notifier``): in Discord and by
mail, as each chose on their Notices page (``web.notify.pages``)."""
