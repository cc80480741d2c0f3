#!/usr/bin/env bash
# Checks every record of nist_sp800_38a.txt against the openssl CLI, an
# implementation independent of parcrypt. Run from this directory.
set -eu
fail=0
while IFS= read -r line; do
  case "$line" in
    "["*) name=$line; iv="" ;;
    "MODE = "*) mode=$(echo "${line#MODE = }" | tr A-Z a-z) ;;
    "KEY = "*) key=${line#KEY = } ;;
    "IV = "*) iv=${line#IV = } ;;
    "PLAINTEXT = "*) pt=${line#PLAINTEXT = } ;;
    "CIPHERTEXT = "*)
      ct=${line#CIPHERTEXT = }
      bits=$(( ${#key} * 4 ))
      ivarg=(); [ -n "$iv" ] && ivarg=(-iv "$iv")
      got=$(echo -n "$pt" | xxd -r -p | openssl enc -aes-$bits-$mode -nopad -K "$key" "${ivarg[@]}" | xxd -p | tr -d '\n')
      if [ "$got" = "$ct" ]; then echo "ok   $name"; else echo "FAIL $name"; fail=1; fi ;;
  esac
done < nist_sp800_38a.txt
exit $fail
