"""Play in Discord: the application's Interactions Endpoint (``/discord/interactions`` in
`campaign serve`), built to Discord's documented protocol. Every request's Ed25519 signature is
checked before its body is read as JSON (``signature``); a channel plays the campaign that linked
it and a Discord account acts as the member linked to it (``tables``); what a slash command asks
is done through the one application API and answered as Discord shows messages (``answers``)."""
