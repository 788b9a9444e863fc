package search

import (
	"context"
	"errors"
	"os"
	"strconv"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"

	"github.com/svcui/svcui/internal/search"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
	"github.com/svcui/svcui/internal/ui/safe"
)

// bulkJob is a running or finished bulk load of a local NDJSON file.
type bulkJob struct {
	path, index string
	size        int64
	progress    search.BulkProgress
	result      *search.BulkResult
	err         string
	running     bool
	visible     bool
	cancel      context.CancelFunc
	updates     chan tea.Msg
}

// bulkMsg carries progress (done=false) or the end of a load, addressed to the pane.
type bulkMsg struct {
	id       int64
	job      *bulkJob
	progress search.BulkProgress
	done     bool
	result   search.BulkResult
	err      error
}

func (m bulkMsg) Target() int64 { return m.id }

// validateNDJSONPath checks what can be checked without the disk (pure: it runs on
// every key); whether the file exists is found when the load starts.
func validateNDJSONPath(path string) error {
	if strings.TrimSpace(path) == "" {
		return errors.New("enter the path of a local NDJSON file")
	}
	return nil
}

func validateIndexName(s string) error {
	s = strings.TrimSpace(s)
	switch {
	case s == "":
		return errors.New("enter the target index")
	case s != strings.ToLower(s):
		return errors.New("index names are lowercase")
	case strings.ContainsAny(s, ` "*\<|,>/?`) || strings.HasPrefix(s, "_") || strings.HasPrefix(s, "-"):
		return errors.New("index names may not contain spaces or \" * \\ < | , > / ? nor start with _ or -")
	}
	return nil
}

// untilTyped is a live check that stays quiet until something was typed in the field
// (a form that opens saying "✗ enter the path" scolds before anything was done); the
// field's own Validate still refuses an empty value on submit.
func untilTyped(v *string, check func(string) error) func() error {
	typed := *v != ""
	return func() error {
		if *v != "" {
			typed = true
		}
		if !typed {
			return nil
		}
		return check(*v)
	}
}

// openBulkForm asks for the file and the index (prefilled from the palette's bulk
// command or the selected index).
func (p *Pane) openBulkForm(path, index string) tea.Cmd {
	if p.ctx.ReadOnly {
		return common.Warn("Read-only mode: bulk load is disabled")
	}
	if p.bulk != nil && p.bulk.running {
		return common.Warn("A bulk load is already running (" + p.ctx.Keys.Back.Help().Key + " cancels it)")
	}
	if index == "" {
		if ix, ok := p.indices.Selected(); ok {
			index = ix.Index
		}
	}
	pathField := huh.NewInput().Title("NDJSON file").Description("one document per line, or _bulk action/document pairs").Value(&path).Validate(validateNDJSONPath)
	indexField := huh.NewInput().Title("Target index").Value(&index).Validate(validateIndexName)
	form := components.NewForm(p.ctx, "Bulk load into "+safe.Text(p.conn.service), func() tea.Cmd {
		return p.startBulk(strings.TrimSpace(path), strings.TrimSpace(index))
	}, huh.NewGroup(pathField, indexField)).
		Live(pathField, untilTyped(&path, validateNDJSONPath)).
		Live(indexField, untilTyped(&index, validateIndexName)).
		Names("file", "NDJSON file", nil)
	p.bulkForm = form
	return common.Send(common.OpenModal{Modal: form})
}

// startBulk opens the file and streams it in a goroutine, all inside a command;
// progress reaches the UI through a channel read by a re-armed command (the latest
// progress wins when the UI is slower).
func (p *Pane) startBulk(path, index string) tea.Cmd {
	id, c := p.req.ID, p.conn.client
	return common.Fetch(p.req, kindBulk, func(context.Context) (*bulkJob, error) {
		f, err := os.Open(path)
		if err != nil {
			return nil, fileError(path, err)
		}
		var size int64
		if fi, err := f.Stat(); err == nil {
			if fi.IsDir() {
				f.Close()
				return nil, errors.New("file " + path + " is a directory, not an NDJSON file")
			}
			size = fi.Size()
		}
		ctx, cancel := context.WithCancel(context.Background())
		job := &bulkJob{path: path, index: index, size: size, running: true, visible: true, cancel: cancel,
			updates: make(chan tea.Msg, 1)}
		go job.stream(ctx, id, c, f)
		return job, nil
	})
}

// fileError says why a file cannot be read, naming the form's field ("file").
func fileError(path string, err error) error {
	switch {
	case errors.Is(err, os.ErrNotExist):
		return errors.New("file " + path + " does not exist")
	case errors.Is(err, os.ErrPermission):
		return errors.New("file " + path + " cannot be read: permission denied")
	}
	return errors.New("file " + path + " cannot be opened: " + err.Error())
}

// stream loads f into the index and reports on the job's channel.
func (j *bulkJob) stream(ctx context.Context, id int64, c *search.Client, f *os.File) {
	defer f.Close()
	res, err := search.BulkLoad(ctx, c, j.index, f, search.BulkOptions{}, func(pr search.BulkProgress) {
		msg := bulkMsg{id: id, job: j, progress: pr}
		select {
		case j.updates <- msg:
		default: // the UI has not read the previous one: replace it
			select {
			case <-j.updates:
			default:
			}
			select {
			case j.updates <- msg:
			default:
			}
		}
	})
	j.cancel()
	// The final message must not be dropped: drain any pending progress first.
	select {
	case <-j.updates:
	default:
	}
	j.updates <- bulkMsg{id: id, job: j, done: true, result: res, err: err}
}

// bulkStarted shows a started load, or brings the form back saying why it could not.
func (p *Pane) bulkStarted(job *bulkJob, err error) tea.Cmd {
	if err != nil {
		if p.bulkForm != nil {
			return p.bulkForm.Invalid(err.Error())
		}
		return common.Error(err.Error())
	}
	p.bulk = job
	return tea.Batch(waitBulk(job), common.Info("Bulk loading "+job.path+" into "+job.index+"… ("+p.ctx.Keys.Back.Help().Key+" cancels)"))
}

func waitBulk(job *bulkJob) tea.Cmd {
	return func() tea.Msg { return <-job.updates }
}

func (p *Pane) handleBulk(m bulkMsg) tea.Cmd {
	job := m.job
	if p.bulk != job {
		return nil
	}
	if !m.done {
		job.progress = m.progress
		return waitBulk(job)
	}
	job.running = false
	job.result = &m.result
	job.progress = search.BulkProgress{BytesRead: m.result.BytesRead, DocsSent: m.result.Docs, DocsFailed: m.result.Failed, Batches: m.result.Batches}
	var note tea.Cmd
	switch {
	case errors.Is(m.err, context.Canceled):
		job.err = "Cancelled after " + strconv.Itoa(m.result.Succeeded) + " documents."
		note = common.Warn("Bulk load cancelled")
	case m.err != nil:
		job.err = describe(p.ctx.Log, "bulk load", m.err).Error()
		note = common.Error("Bulk load stopped: " + job.err)
	case m.result.Failed > 0:
		note = common.Warn("Bulk load finished: " + strconv.Itoa(m.result.Succeeded) + " indexed, " + strconv.Itoa(m.result.Failed) + " failed")
	default:
		note = common.Success("Bulk load finished: " + strconv.Itoa(m.result.Succeeded) + " documents indexed into " + job.index)
	}
	return tea.Batch(note, p.indices.Load())
}

func (j *bulkJob) view(ctx *common.Context, w int) string {
	st := ctx.Styles
	lines := []string{st.Title.Render("Bulk load") + " " + safe.Text(j.path) + " → " + safe.Text(j.index)}
	done := float64(j.progress.BytesRead)
	total := float64(j.size)
	if j.result != nil && j.err == "" {
		done = total
	}
	lines = append(lines, components.Gauge(ctx, done, total, min(60, w)))
	lines = append(lines, strconv.Itoa(j.progress.DocsSent)+" documents sent · "+strconv.Itoa(j.progress.DocsFailed)+" failed · "+strconv.Itoa(j.progress.Batches)+" batches")
	switch {
	case j.running:
		lines = append(lines, st.Muted.Render(ctx.Keys.Back.Help().Key+" cancels"))
	case j.err != "":
		lines = append(lines, st.Danger.Render(safe.Text(j.err)))
	case j.result != nil:
		lines = append(lines, st.OK.Render("Done: "+strconv.Itoa(j.result.Succeeded)+" indexed, "+strconv.Itoa(j.result.Failed)+" failed in "+j.result.Elapsed.Round(1e6).String()))
	}
	if j.result != nil {
		for i, f := range j.result.Failures {
			if i == 5 {
				lines = append(lines, st.Muted.Render("…"))
				break
			}
			lines = append(lines, st.Danger.Render("line "+strconv.Itoa(f.Line)+": "+safe.Text(f.Type)+": "+safe.Text(f.Reason)))
		}
		lines = append(lines, st.Muted.Render("the panel closes with the next run"))
	}
	return strings.Join(lines, "\n")
}
