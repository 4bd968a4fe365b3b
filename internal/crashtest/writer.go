package crashtest

import (
	"bytes"
	"context"
	"fmt"
	"math/rand"
	"mime/multipart"
	"net/http"
	"sync"

	"github.com/go-pdf/fpdf"
	"github.com/xuri/excelize/v2"
)

// importRows is how many points of sale one import creates.
const importRows = 20

// writer is one client writing in a loop until the server dies: every
// write's outcome goes into the model. Each writer updates only records it
// created, so no two writers conflict.
type writer struct {
	id, epoch int
	c         *client
	m         *model
	fx        *fixtures
	rnd       *rand.Rand
	n         int
	tags      []*tagRec
	tickets   []*ticketRec
}

// run writes until a request fails for want of an answer (the server was
// killed) or stop is closed.
func (w *writer) run(ctx context.Context, stop <-chan struct{}) error {
	for {
		select {
		case <-stop:
			return nil
		default:
		}
		w.n++
		var alive bool
		var err error
		switch p := w.rnd.Intn(100); {
		case p < 35:
			alive, err = w.createTag(ctx)
		case p < 55:
			alive, err = w.updateTag(ctx)
		case p < 75:
			alive, err = w.ticket(ctx)
		case p < 90:
			alive, err = w.upload(ctx)
		default:
			alive, err = w.importPos(ctx)
		}
		if err != nil || !alive {
			return err
		}
	}
}

func (w *writer) name(kind string) string {
	return fmt.Sprintf("%s%s-%d-%d-%d", namePrefix, kind, w.epoch, w.id, w.n)
}

// answered records a request's outcome: false when no answer came (the
// write is in doubt), and a violation for an answer other than want.
func (w *writer) answered(what string, status int, body []byte, err error, want int) bool {
	w.m.mu.Lock()
	defer w.m.mu.Unlock()
	w.m.sent++
	switch {
	case err != nil:
		w.m.unacked++
		return false
	case status == want:
		w.m.acked++
	default:
		w.m.lost = append(w.m.lost, fmt.Sprintf("%s answered %d, want %d: %.300s", what, status, want, body))
	}
	return true
}

func (w *writer) createTag(ctx context.Context) (bool, error) {
	name := w.name("tag")
	var out struct {
		Data struct {
			ID      int64 `json:"tag_id"`
			Version int64 `json:"row_version"`
		} `json:"data"`
	}
	rec := &tagRec{name: name}
	w.m.addTag(rec)
	status, body, err := w.c.json(ctx, "POST", "/api/?tag", map[string]any{"action": "create", "entity": "tag", "data": map[string]any{"tag_name": name}}, &out)
	if !w.answered("create tag", status, body, err, http.StatusCreated) {
		return false, nil
	}
	if status == http.StatusCreated {
		w.m.mu.Lock()
		rec.id, rec.version, rec.acked = out.Data.ID, out.Data.Version, true
		w.m.mu.Unlock()
		w.tags = append(w.tags, rec)
	}
	return true, nil
}

func (w *writer) updateTag(ctx context.Context) (bool, error) {
	if len(w.tags) == 0 {
		return w.createTag(ctx)
	}
	rec := w.tags[w.rnd.Intn(len(w.tags))]
	name := w.name("tagu")
	w.m.mu.Lock()
	rec.pending = name
	w.m.names[name] = rec
	w.m.mu.Unlock()
	var out struct {
		Data struct {
			Version int64 `json:"row_version"`
		} `json:"data"`
	}
	status, body, err := w.c.json(ctx, "POST", "/api/?tag", map[string]any{"action": "update", "entity": "tag", "id": rec.id,
		"row_version": rec.version, "data": map[string]any{"tag_name": name}}, &out)
	if !w.answered("update tag", status, body, err, http.StatusOK) {
		return false, nil
	}
	w.m.mu.Lock()
	if status == http.StatusOK {
		rec.name, rec.version = name, out.Data.Version
	}
	rec.pending = ""
	w.m.mu.Unlock()
	return true, nil
}

// ticket moves one of the writer's tickets from the first column to the
// second, or creates a ticket when it has none left to move.
func (w *writer) ticket(ctx context.Context) (bool, error) {
	var out struct {
		Data struct {
			ID      int64 `json:"ticket_id"`
			Version int64 `json:"row_version"`
			Column  int64 `json:"columnx_id"`
		} `json:"data"`
	}
	for _, rec := range w.tickets {
		if rec.column != w.fx.firstColumn {
			continue
		}
		w.m.mu.Lock()
		rec.movePending = true
		w.m.mu.Unlock()
		status, body, err := w.c.json(ctx, "PUT", "/tickets/update", map[string]any{"ticket_id": rec.id, "row_version": rec.version,
			"columnx_id": w.fx.secondColumn}, &out)
		if !w.answered("move ticket", status, body, err, http.StatusOK) {
			return false, nil
		}
		w.m.mu.Lock()
		if status == http.StatusOK {
			rec.column, rec.version = out.Data.Column, out.Data.Version
		}
		rec.movePending = false
		w.m.mu.Unlock()
		return true, nil
	}
	name := w.name("ticket")
	rec := &ticketRec{name: name}
	w.m.addTicket(rec)
	status, body, err := w.c.json(ctx, "POST", "/tickets", map[string]any{"ticket_name": name, "pos_id": w.fx.pos, "priority_id": 1,
		"board_id": w.fx.board, "columnx_id": w.fx.firstColumn}, &out)
	if !w.answered("create ticket", status, body, err, http.StatusCreated) {
		return false, nil
	}
	if status == http.StatusCreated {
		w.m.mu.Lock()
		rec.id, rec.version, rec.column, rec.acked = out.Data.ID, out.Data.Version, out.Data.Column, true
		w.m.mu.Unlock()
		w.tickets = append(w.tickets, rec)
	}
	return true, nil
}

var (
	pdfOnce  sync.Once
	pdfBytes []byte
	pdfErr   error
)

// samplePDF is a small real PDF file.
func samplePDF() ([]byte, error) {
	pdfOnce.Do(func() {
		p := fpdf.New("P", "mm", "A4", "")
		p.AddPage()
		p.SetFont("Helvetica", "", 12)
		p.Cell(40, 10, "Crash test")
		var b bytes.Buffer
		pdfErr = p.Output(&b)
		pdfBytes = b.Bytes()
	})
	return pdfBytes, pdfErr
}

func (w *writer) upload(ctx context.Context) (bool, error) {
	pdf, err := samplePDF()
	if err != nil {
		return false, err
	}
	name := w.name("doc")
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	if err := mw.WriteField("documenttype_id", fmt.Sprint(w.fx.documentType)); err != nil {
		return false, err
	}
	part, err := mw.CreateFormFile("files", name+".pdf")
	if err != nil {
		return false, err
	}
	if _, err := part.Write(pdf); err != nil {
		return false, err
	}
	if err := mw.Close(); err != nil {
		return false, err
	}
	rec := &docRec{name: name, size: int64(len(pdf))}
	w.m.addDoc(rec)
	status, body, err := w.c.do(ctx, "POST", "/documents/uploadfiles", mw.FormDataContentType(), &b)
	if !w.answered("upload document", status, body, err, http.StatusCreated) {
		return false, nil
	}
	if status == http.StatusCreated {
		w.m.mu.Lock()
		rec.acked = true
		w.m.mu.Unlock()
	}
	return true, nil
}

// importPos imports a spreadsheet of points of sale: upload, validate,
// commit. Only the commit writes records; its rows appear all or none.
func (w *writer) importPos(ctx context.Context) (bool, error) {
	name := w.name("imp")
	f := excelize.NewFile()
	defer f.Close()
	sheet := f.GetSheetName(0)
	if err := f.SetSheetRow(sheet, "A1", &[]any{"Company", "Name", "Branch number", "First year", "Contact person", "Opening date"}); err != nil {
		return false, err
	}
	for i := 0; i < importRows; i++ {
		cell, _ := excelize.CoordinatesToCellName(1, i+2)
		if err := f.SetSheetRow(sheet, cell, &[]any{w.fx.companyName, fmt.Sprintf("%s-%02d", name, i), fmt.Sprintf("C%d", i), 2020, w.fx.contactName, "2020-05-01"}); err != nil {
			return false, err
		}
	}
	var file bytes.Buffer
	if err := f.Write(&file); err != nil {
		return false, err
	}
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	_ = mw.WriteField("entity", "pos")
	part, err := mw.CreateFormFile("file", name+".xlsx")
	if err != nil {
		return false, err
	}
	if _, err := part.Write(file.Bytes()); err != nil {
		return false, err
	}
	if err := mw.Close(); err != nil {
		return false, err
	}
	rec := &importRec{name: name}
	w.m.addImport(rec)
	status, body, err := w.c.do(ctx, "POST", "/uploadxlsx/", mw.FormDataContentType(), &b)
	if !w.answered("upload import", status, body, err, http.StatusCreated) {
		return false, nil
	}
	if status != http.StatusCreated {
		return true, nil
	}
	var up struct {
		ID int64 `json:"import_id"`
	}
	if err := jsonUnmarshal(body, &up); err != nil {
		return false, err
	}
	var v struct {
		Valid   int `json:"valid"`
		Invalid int `json:"invalid"`
	}
	status, body, err = w.c.json(ctx, "POST", fmt.Sprintf("/imports/%d/validate", up.ID),
		map[string]any{"mapping": map[string]string{"Company": "company_id", "Name": "pos_name", "Branch number": "pos_branchnumber",
			"First year": "pos_first_year", "Contact person": "contactperson_id", "Opening date": "pos_opening_date"}}, &v)
	if !w.answered("validate import", status, body, err, http.StatusOK) {
		return false, nil
	}
	if status != http.StatusOK {
		return true, nil
	}
	if v.Valid != importRows {
		w.m.mu.Lock()
		w.m.lost = append(w.m.lost, fmt.Sprintf("import %s: %d valid rows of %d: %.300s", name, v.Valid, importRows, body))
		w.m.mu.Unlock()
		return true, nil
	}
	w.m.mu.Lock()
	rec.committing = true
	w.m.mu.Unlock()
	status, body, err = w.c.do(ctx, "POST", fmt.Sprintf("/imports/%d/commit", up.ID), "", nil)
	if !w.answered("commit import", status, body, err, http.StatusOK) {
		return false, nil
	}
	if status == http.StatusOK {
		w.m.mu.Lock()
		rec.acked = true
		w.m.mu.Unlock()
	}
	return true, nil
}
