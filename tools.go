//go:build tools

package main

import (
	_ "github.com/emersion/go-smtp"
	_ "github.com/golang-jwt/jwt/v5"
	_ "github.com/jackc/pgx/v5/stdlib"
	_ "github.com/pdfcpu/pdfcpu/pkg/api"
	_ "github.com/wneessen/go-mail"
	_ "github.com/xuri/excelize/v2"
	_ "golang.org/x/crypto/argon2"
	_ "modernc.org/sqlite"
)
