#!/bin/sh
# The check image's entry: `docker run origin-lab/check <url> --from <origin> ...` is a check;
# a first word that names another command (engines, explain, mcp) or asks for help or the
# version goes to origin-lab as it is.
case "${1:-}" in
  check | engines | explain | mcp | --help | -h | --version) exec origin-lab "$@" ;;
  *) exec origin-lab check "$@" ;;
esac
