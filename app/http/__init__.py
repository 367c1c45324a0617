"""Routes only: parse the request, call one service, shape the reply."""
