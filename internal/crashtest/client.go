package crashtest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// ProxyErrorHeader marks an answer tools/clusterproxy made itself because
// no server answered.
const ProxyErrorHeader = "X-Proxy-Error"

// DemoPassword is the seeded demo users' password.
const demoPassword = "Demo-Password-1"

// client talks to the server as the demo administrator.
type client struct {
	base  string
	http  *http.Client
	token string
}

func (c *client) login(ctx context.Context) error {
	form := url.Values{"username": {"admin@demo.test"}, "password": {demoPassword}, "user_browser_hash": {"crashtest"}}
	status, body, err := c.do(ctx, "POST", "/token", "application/x-www-form-urlencoded", strings.NewReader(form.Encode()))
	if err != nil {
		return err
	}
	if status != http.StatusOK {
		return fmt.Errorf("login answered %d %s", status, body)
	}
	var tok struct {
		Access string `json:"access_token"`
	}
	if err := json.Unmarshal(body, &tok); err != nil {
		return err
	}
	c.token = tok.Access
	return nil
}

// do sends one request; err is set only when no complete answer arrived.
func (c *client) do(ctx context.Context, method, path, contentType string, body io.Reader) (int, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, body)
	if err != nil {
		return 0, nil, err
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	res, err := c.http.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	if res.StatusCode == http.StatusBadGateway && res.Header.Get(ProxyErrorHeader) != "" {
		// The proxy in front of several servers (the cluster test) lost
		// the connection to the one it chose: no server's answer.
		return 0, nil, fmt.Errorf("no answer through the proxy: %s", res.Header.Get(ProxyErrorHeader))
	}
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return 0, nil, err
	}
	return res.StatusCode, b, nil
}

// json sends v as JSON and decodes a 2xx answer into out.
func (c *client) json(ctx context.Context, method, path string, v, out any) (int, []byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return 0, nil, err
	}
	status, body, err := c.do(ctx, method, path, "application/json", bytes.NewReader(b))
	if err == nil && status/100 == 2 && out != nil {
		if jerr := json.Unmarshal(body, out); jerr != nil {
			return status, body, fmt.Errorf("decode answer of %s %s: %w", method, path, jerr)
		}
	}
	return status, body, err
}
