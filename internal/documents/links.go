package documents

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"portfolio/internal/access"
	"portfolio/internal/apperr"
	"portfolio/internal/auth"
)

// LinkTTL is how long a link token opens its document's five URLs.
const LinkTTL = 5 * time.Minute

// PrincipalSource builds the principal of the user a link token names, so
// a link reads within exactly that user's rights and tenant
// (auth.Service.PrincipalOf), and tells whether the session the token was
// issued in ended (auth.Service.EndedSessions).
type PrincipalSource interface {
	PrincipalOf(ctx context.Context, userID int64) (*auth.Principal, error)
	EndedSessions(ctx context.Context, sessions []string) (map[string]bool, error)
}

// UseLinks gives the service the server's secret (link tokens are signed
// with a key derived from it) and where it finds a link's user; without it
// the link calls answer 404.
func (s *Service) UseLinks(secret []byte, principals PrincipalSource) {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("portfolio document link v1"))
	s.linkKey, s.principals = m.Sum(nil), principals
}

// Links are the five URLs of a document, each with a link token.
type Links struct {
	Download      string `json:"download"`
	DownloadStamp string `json:"download_stamp"`
	Preview       string `json:"preview"`
	PreviewStamp  string `json:"preview_stamp"`
	SignImage     string `json:"sign_image"`
	// DocumentTypeID is the document's type, nil while it has none: then
	// the stamped copy and a signature are refused (decision 0065).
	DocumentTypeID *int64 `json:"documenttype_id"`
	// ExpiresAt is when the token stops opening them.
	ExpiresAt time.Time `json:"expires_at"`
}

// Links issues the caller a link token for document id (one they see)
// and answers the document's URLs with it.
func (s *Service) Links(ctx context.Context, id int64) (*Links, error) {
	p, ok := auth.PrincipalFrom(ctx)
	if !ok {
		return nil, apperr.Unauthorized("server.auth.not_authenticated")
	}
	if len(s.linkKey) == 0 {
		return nil, apperr.NotFound("server.error.not_found")
	}
	if err := s.engine.Require(ctx, access.ActionRead, entity); err != nil {
		return nil, err
	}
	r, err := s.readRow(ctx, s.db, id)
	if err != nil {
		return nil, err
	}
	exp := s.now().Add(LinkTTL).UTC().Truncate(time.Second)
	q := "?authorization=" + url.QueryEscape(s.linkToken(id, p.UserID, p.SessionID, exp))
	d := strconv.FormatInt(id, 10)
	l := &Links{
		Download:      "/document/download/" + d + q,
		DownloadStamp: "/document/download/stamp/" + d + q,
		Preview:       "/documents/preview/" + d + q,
		PreviewStamp:  "/documents/preview/stamp/" + d + q,
		SignImage:     "/documents-sign/image/" + d + q,
		ExpiresAt:     exp,
	}
	if r.typeID != 0 {
		l.DocumentTypeID = &r.typeID
	}
	return l, nil
}

// linkToken is "<document>.<user>.<expiry unix>.<session>.<MAC>": the
// MAC is HMAC-SHA256 under the link key over the rest, so nothing is
// stored and a token opens only that document for that user until expiry,
// and only while the session it was issued in lives (a logout, a lock or
// a password change ends its links too, issue 42). A principal without a
// session (none comes over HTTP) issues tokens with an empty session.
func (s *Service) linkToken(doc, user int64, session string, exp time.Time) string {
	payload := fmt.Sprintf("%d.%d.%d.%s", doc, user, exp.Unix(), session)
	return payload + "." + s.linkMAC(payload)
}

func (s *Service) linkMAC(payload string) string {
	m := hmac.New(sha256.New, s.linkKey)
	m.Write([]byte("doclink|" + payload))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// errLink is the one answer to every unusable link: missing, malformed,
// forged, expired, for another document, an access token instead of a
// link token, or a user who no longer exists. It tells which of these it
// was to nobody.
func errLink() error { return apperr.Unauthorized("server.documents.link_invalid") }

// linkContext checks token for document id and answers ctx acting as the
// link's user (their rights and tenant scope apply to the read).
func (s *Service) linkContext(ctx context.Context, token string, id int64) (context.Context, error) {
	if len(s.linkKey) == 0 || s.principals == nil || len(token) > 200 {
		return nil, errLink()
	}
	parts := strings.Split(token, ".")
	if len(parts) != 5 {
		return nil, errLink()
	}
	payload := strings.Join(parts[:4], ".")
	if subtle.ConstantTimeCompare([]byte(parts[4]), []byte(s.linkMAC(payload))) != 1 {
		return nil, errLink()
	}
	doc, err1 := strconv.ParseInt(parts[0], 10, 64)
	user, err2 := strconv.ParseInt(parts[1], 10, 64)
	exp, err3 := strconv.ParseInt(parts[2], 10, 64)
	if err1 != nil || err2 != nil || err3 != nil || doc != id || !s.now().Before(time.Unix(exp, 0)) {
		return nil, errLink()
	}
	if session := parts[3]; session != "" {
		ended, err := s.principals.EndedSessions(ctx, []string{session})
		if err != nil {
			return nil, err
		}
		if ended[session] {
			return nil, errLink()
		}
	}
	p, err := s.principals.PrincipalOf(ctx, user)
	if err != nil {
		return nil, errLink()
	}
	return auth.WithPrincipal(ctx, p), nil
}
