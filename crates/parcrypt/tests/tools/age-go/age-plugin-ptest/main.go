// age-plugin-ptest: a test plugin for parcrypt's age plugin client, written
// with filippo.io/age/plugin (v1.3.2), so that the client meets the
// reference implementation of the plugin side of the protocol.
//
//	age-plugin-ptest -keygen [-mode MODE]   prints the recipient, then the identity
//
// A key's data is "MODE:" and an X25519 key (age1… for recipients,
// AGE-SECRET-KEY-1… for identities). The file key is wrapped as the X25519
// type does, in a stanza of type "ptest" (so only this plugin opens it).
// Before wrapping or unwrapping (only unwrapping for "d-MODE"), MODE does:
//
//	msg       shows a message
//	confirm   asks yes/no; no is an error
//	confirm1  asks with one option
//	secret    asks for a secret, which must be "1234"
//	public    asks for a public value, which must be "sesame"
//	error     fails with "the ptest plugin refuses: tamper detected"
//	hang      sleeps for an hour
//	exit      writes to stderr and exits with status 7
//	lonely    wraps with the label "ptest-lonely" (no other recipient may share the file)
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"filippo.io/age"
	"filippo.io/age/plugin"
)

var p *plugin.Plugin

func before(mode string) error {
	switch mode {
	case "msg":
		return p.DisplayMessage("hello from ptest")
	case "confirm", "confirm1":
		no := "no"
		if mode == "confirm1" {
			no = ""
		}
		yes, err := p.Confirm("touch the ptest key?", "yes", no)
		if err != nil {
			return fmt.Errorf("confirmation failed: %v", err)
		}
		if !yes {
			return errors.New("declined by the user")
		}
	case "secret":
		v, err := p.RequestValue("Enter PIN for ptest:", true)
		if err != nil {
			return fmt.Errorf("no PIN: %v", err)
		}
		if v != "1234" {
			return errors.New("wrong PIN")
		}
	case "public":
		v, err := p.RequestValue("Type the magic word:", false)
		if err != nil {
			return fmt.Errorf("no word: %v", err)
		}
		if v != "sesame" {
			return errors.New("wrong word")
		}
	case "error":
		return errors.New("the ptest plugin refuses: tamper detected")
	case "hang":
		time.Sleep(time.Hour)
	case "exit":
		fmt.Fprintln(os.Stderr, "ptest: exiting on purpose")
		os.Exit(7)
	}
	return nil
}

func split(data []byte) (mode, key string, err error) {
	mode, key, ok := strings.Cut(string(data), ":")
	if !ok {
		return "", "", errors.New("malformed ptest key")
	}
	return mode, key, nil
}

type recipient struct {
	mode string
	r    *age.X25519Recipient
}

func (r *recipient) Wrap(fileKey []byte) ([]*age.Stanza, error) {
	s, _, err := r.WrapWithLabels(fileKey)
	return s, err
}

func (r *recipient) WrapWithLabels(fileKey []byte) ([]*age.Stanza, []string, error) {
	if !strings.HasPrefix(r.mode, "d-") {
		if err := before(r.mode); err != nil {
			return nil, nil, err
		}
	}
	ss, err := r.r.Wrap(fileKey)
	if err != nil {
		return nil, nil, err
	}
	for _, s := range ss {
		s.Type = "ptest"
	}
	var labels []string
	if r.mode == "lonely" {
		labels = []string{"ptest-lonely"}
	}
	return ss, labels, nil
}

type identity struct {
	mode string
	i    *age.X25519Identity
}

func (i *identity) Unwrap(stanzas []*age.Stanza) ([]byte, error) {
	var mine []*age.Stanza
	for _, s := range stanzas {
		if s.Type == "ptest" {
			mine = append(mine, &age.Stanza{Type: "X25519", Args: s.Args, Body: s.Body})
		}
	}
	if len(mine) == 0 {
		return nil, age.ErrIncorrectIdentity
	}
	if err := before(strings.TrimPrefix(i.mode, "d-")); err != nil {
		return nil, err
	}
	return i.i.Unwrap(mine)
}

func parseIdentity(data []byte) (*identity, error) {
	mode, key, err := split(data)
	if err != nil {
		return nil, err
	}
	i, err := age.ParseX25519Identity(key)
	if err != nil {
		return nil, err
	}
	return &identity{mode, i}, nil
}

func main() {
	var err error
	p, err = plugin.New("ptest")
	if err != nil {
		panic(err)
	}
	p.RegisterFlags(nil)
	keygen := flag.Bool("keygen", false, "print a new recipient and identity")
	mode := flag.String("mode", "", "the mode of the new key")
	flag.Parse()

	if *keygen {
		id, err := age.GenerateX25519Identity()
		if err != nil {
			panic(err)
		}
		fmt.Println(plugin.EncodeRecipient("ptest", []byte(*mode+":"+id.Recipient().String())))
		fmt.Println(plugin.EncodeIdentity("ptest", []byte(*mode+":"+id.String())))
		return
	}

	p.HandleRecipient(func(data []byte) (age.Recipient, error) {
		mode, key, err := split(data)
		if err != nil {
			return nil, err
		}
		r, err := age.ParseX25519Recipient(key)
		if err != nil {
			return nil, err
		}
		return &recipient{mode, r}, nil
	})
	p.HandleIdentityAsRecipient(func(data []byte) (age.Recipient, error) {
		i, err := parseIdentity(data)
		if err != nil {
			return nil, err
		}
		return &recipient{i.mode, i.i.Recipient()}, nil
	})
	p.HandleIdentity(func(data []byte) (age.Identity, error) {
		return parseIdentity(data)
	})
	os.Exit(p.Main())
}
