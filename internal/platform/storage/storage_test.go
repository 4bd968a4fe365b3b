package storage_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"portfolio/internal/platform/storage"
	"portfolio/internal/platform/storage/s3test"
)

// backends answers each implementation, the bucket one on a real S3
// server speaking HTTP.
func backends(t *testing.T) map[string]storage.Backend {
	dir, err := storage.NewDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	srv := s3test.Start(t)
	s3, err := storage.NewS3(srv.Config)
	if err != nil {
		t.Fatal(err)
	}
	if err := s3.Check(context.Background()); err != nil {
		t.Fatal(err)
	}
	return map[string]storage.Backend{"dir": dir, "s3": s3}
}

func TestBackendsStoreReadListRemove(t *testing.T) {
	ctx := context.Background()
	for name, b := range backends(t) {
		t.Run(name, func(t *testing.T) {
			body := bytes.Repeat([]byte("0123456789abcdef"), 4096) // 64 KiB
			if err := b.Put(ctx, "aa11.pdf", bytes.NewReader(body), int64(len(body))); err != nil {
				t.Fatal(err)
			}
			staged := filepath.Join(t.TempDir(), "staged")
			if err := os.WriteFile(staged, []byte("second"), 0o600); err != nil {
				t.Fatal(err)
			}
			if d, ok := b.(*storage.Dir); ok { // the directory renames from its own tmp
				moved := filepath.Join(d.TempDir(), "staged")
				if err := os.Rename(staged, moved); err != nil {
					t.Fatal(err)
				}
				staged = moved
			}
			if err := b.PutFile(ctx, "bb22.png", staged); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(staged); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the staged file is still there: %v", err)
			}

			obj, err := b.Open(ctx, "aa11.pdf")
			if err != nil {
				t.Fatal(err)
			}
			if _, err := obj.Seek(16*100+3, io.SeekStart); err != nil {
				t.Fatal(err)
			}
			part := make([]byte, 5)
			if _, err := io.ReadFull(obj, part); err != nil || string(part) != "3456789"[:5] {
				t.Errorf("a read after a seek answers %q, %v", part, err)
			}
			if end, err := obj.Seek(0, io.SeekEnd); err != nil || end != int64(len(body)) {
				t.Errorf("the end is at %d, %v", end, err)
			}
			obj.Seek(0, io.SeekStart)
			all, err := io.ReadAll(obj)
			obj.Close()
			if err != nil || !bytes.Equal(all, body) {
				t.Errorf("read back %d bytes, %v; want %d", len(all), err, len(body))
			}

			if info, err := b.Stat(ctx, "bb22.png"); err != nil || info.Size != 6 || info.Key != "bb22.png" ||
				time.Since(info.Modified) > time.Hour {
				t.Errorf("stat: %+v, %v", info, err)
			}
			var keys []string
			if err := b.List(ctx, func(i storage.Info) error { keys = append(keys, i.Key); return nil }); err != nil {
				t.Fatal(err)
			}
			sort.Strings(keys)
			if strings.Join(keys, ",") != "aa11.pdf,bb22.png" {
				t.Errorf("list answers %v", keys)
			}
			stop := errors.New("stop")
			if err := b.List(ctx, func(storage.Info) error { return stop }); !errors.Is(err, stop) {
				t.Errorf("a listing stopped by its callback answers %v", err)
			}

			if err := b.Remove(ctx, "aa11.pdf"); err != nil {
				t.Fatal(err)
			}
			if err := b.Remove(ctx, "aa11.pdf"); err != nil {
				t.Errorf("removing a missing object: %v", err)
			}
			if _, err := b.Open(ctx, "aa11.pdf"); !errors.Is(err, storage.ErrNotExist) {
				t.Errorf("opening a removed object: %v", err)
			}
			if _, err := b.Stat(ctx, "aa11.pdf"); !errors.Is(err, storage.ErrNotExist) {
				t.Errorf("stat of a removed object: %v", err)
			}
			for _, bad := range []string{"../x.pdf", "a/b.pdf", "", ".hidden", "x"} {
				if err := b.Put(ctx, bad, strings.NewReader("x"), 1); err == nil {
					t.Errorf("Put accepted the key %q", bad)
				}
			}
			if err := b.Put(ctx, "cc33.pdf", strings.NewReader("short"), 10); err == nil {
				t.Error("a reader shorter than its size was stored")
			}
			// (On S3 an interrupted PUT stores nothing by the protocol; the
			// test server's leftovers of one are not S3's behaviour.)
			if _, err := b.Stat(ctx, "cc33.pdf"); name == "dir" && !errors.Is(err, storage.ErrNotExist) {
				t.Errorf("a failed Put left an object: %v", err)
			}
		})
	}
}

// TestS3RefusesWrongCredentials: the server checks signatures, so the
// client really signs with the configured keys.
func TestS3RefusesWrongCredentials(t *testing.T) {
	srv := s3test.Start(t)
	cfg := srv.Config
	cfg.SecretKey = "not-the-secret"
	s3, err := storage.NewS3(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := s3.Check(context.Background()); err == nil {
		t.Fatal("a wrong secret reached the bucket")
	}
	if err := s3.Put(context.Background(), "aa11.pdf", strings.NewReader("x"), 1); err == nil {
		t.Fatal("a wrong secret stored an object")
	}
	if srv.Refused.Load() == 0 {
		t.Error("the server refused nothing")
	}
	cfg.URL = "s3://missing-bucket/x"
	cfg.SecretKey = s3test.SecretKey
	if s3, err = storage.NewS3(cfg); err != nil {
		t.Fatal(err)
	}
	if err := s3.Check(context.Background()); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("a missing bucket: %v", err)
	}
}

func TestParseS3URL(t *testing.T) {
	for raw, want := range map[string]string{
		"s3://b":           "b|",
		"s3://b/":          "b|",
		"s3://b/docs":      "b|docs/",
		"s3://b/a/b/":      "b|a/b/",
		"https://b/x":      "error",
		"s3:///x":          "error",
		"s3://b/a/../c":    "error",
		"s3://b/x?y=1":     "error",
		"s3://u:p@b/x":     "error",
		"s3://b/a//c":      "error",
		"not a url at all": "error",
	} {
		b, p, err := storage.ParseS3URL(raw)
		got := b + "|" + p
		if err != nil {
			got = "error"
		}
		if got != want {
			t.Errorf("%q: %q, want %q", raw, got, want)
		}
	}
}

// pattern is a reader of n generated bytes that never holds them: neither
// a seeker nor a ReaderAt, so the client cannot take a shortcut.
type pattern struct{ left int64 }

func (p *pattern) Read(b []byte) (int, error) {
	if p.left <= 0 {
		return 0, io.EOF
	}
	if int64(len(b)) > p.left {
		b = b[:p.left]
	}
	for i := range b {
		b[i] = byte(p.left - int64(i))
	}
	p.left -= int64(len(b))
	return len(b), nil
}

// TestS3UploadStreams: a 96 MiB upload (about the largest document) goes
// through the client and the server while the process's heap stays far
// below the object's size, and arrives whole.
func TestS3UploadStreams(t *testing.T) {
	if testing.Short() {
		t.Skip("moves 96 MiB")
	}
	srv := s3test.Start(t)
	s3, err := storage.NewS3(srv.Config)
	if err != nil {
		t.Fatal(err)
	}
	const size = 96 << 20
	const bound = 24 << 20
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	var peak atomic.Uint64
	done := make(chan struct{})
	go func() {
		var m runtime.MemStats
		for {
			select {
			case <-done:
				return
			case <-time.After(20 * time.Millisecond):
			}
			runtime.ReadMemStats(&m)
			if m.HeapInuse > peak.Load() {
				peak.Store(m.HeapInuse)
			}
		}
	}()
	err = s3.Put(context.Background(), "dd44.pdf", &pattern{left: size}, size)
	close(done)
	if err != nil {
		t.Fatal(err)
	}
	grew := int64(peak.Load()) - int64(before.HeapInuse)
	t.Logf("heap in use before %d MiB, peak during the upload %d MiB (grew %d MiB) for %d MiB", before.HeapInuse>>20, peak.Load()>>20, grew>>20, size>>20)
	if grew > bound {
		t.Errorf("the heap grew by %d MiB during a %d MiB upload; the bound is %d MiB", grew>>20, size>>20, bound>>20)
	}
	obj, err := s3.Open(context.Background(), "dd44.pdf")
	if err != nil {
		t.Fatal(err)
	}
	defer obj.Close()
	got, want := sha256.New(), sha256.New()
	n, err := io.Copy(got, obj)
	io.Copy(want, &pattern{left: size})
	if err != nil || n != size || !bytes.Equal(got.Sum(nil), want.Sum(nil)) {
		t.Errorf("read back %d bytes (%v), equal: %v", n, err, bytes.Equal(got.Sum(nil), want.Sum(nil)))
	}
}
