package seed

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"strings"
	"time"

	"github.com/go-pdf/fpdf"

	"portfolio/internal/app"
	"portfolio/internal/platform/mailbox"
)

// DemoMail stores a few received mails for the incoming-mail screen, through
// the same import the IMAP job uses (sanitizer, attachments as documents,
// suggestions): one naming the first demo ticket, one from nobody known,
// one with a PDF. Each is stored once (by Message-ID).
func DemoMail(ctx context.Context, a *app.App, now time.Time) error {
	var ticket int64
	if err := a.DB.QueryRowContext(ctx, `SELECT MIN(ticket_id) FROM ticket`).Scan(&ticket); err != nil {
		return fmt.Errorf("seed demo mail: %w", err)
	}
	p := fpdf.New("P", "mm", "A4", "")
	p.AddPage()
	p.SetFont("Helvetica", "", 14)
	p.Cell(40, 10, "Angebot Dachsanierung")
	p.Ln(12)
	p.SetFont("Helvetica", "", 11)
	p.Cell(40, 8, "Pauschal 12.400,00 EUR netto, Ausfuehrung in KW 50.")
	var pdf bytes.Buffer
	if err := p.Output(&pdf); err != nil {
		return fmt.Errorf("seed demo mail: %w", err)
	}
	date := now.UTC().Add(-2 * time.Hour).Format(time.RFC1123Z)
	mails := []string{
		fmt.Sprintf(`From: Dachdecker Krause <angebote@krause-dach.example>
To: posteingang@portfolio.test
Subject: Angebot zu Ticket #%d
Message-ID: <demo-offer@krause-dach.example>
Date: %s
MIME-Version: 1.0
Content-Type: multipart/mixed; boundary="demo"

--demo
Content-Type: text/html; charset=utf-8

<p>Guten Tag,</p><p>anbei unser <b>Angebot</b> zur Dachsanierung.</p><p>Mit freundlichen Gr&uuml;&szlig;en<br>Krause</p>
--demo
Content-Type: application/pdf; name="Angebot Dach.pdf"
Content-Disposition: attachment; filename="Angebot Dach.pdf"
Content-Transfer-Encoding: base64

%s
--demo--
`, ticket, date, base64.StdEncoding.EncodeToString(pdf.Bytes())),
		fmt.Sprintf(`From: newsletter@werbung.example
To: posteingang@portfolio.test
Subject: Unser Herbstangebot
Message-ID: <demo-news@werbung.example>
Date: %s

Jetzt 20 Prozent sparen.
`, now.UTC().Add(-time.Hour).Format(time.RFC1123Z)),
	}
	msgs := make([]mailbox.Message, len(mails))
	for i, m := range mails {
		msgs[i] = mailbox.Message{UID: uint32(i + 1), Raw: []byte(strings.ReplaceAll(m, "\n", "\r\n"))}
	}
	_, err := a.DocumentService().ImportMail(ctx, msgs)
	return err
}
