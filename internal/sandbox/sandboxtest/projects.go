package sandboxtest

import (
	"bufio"
	"fmt"
	"io"
)

// WriteProjectList writes a valid GET /v1/project answer of n projects shaped like the
// platform's (the fields it always sends, about 310 bytes each with the role), with
// the membership, as it goes: a server that serves it holds no copy in the heap a
// memory test measures.
func WriteProjectList(w io.Writer, n int) { WriteProjectListAt(w, n, 0) }

// WriteProjectListAt is WriteProjectList as the platform answers it at the round-th
// read: every project's estimated balance is round cents higher (round 0 is
// WriteProjectList's), as on an account whose services all run.
func WriteProjectListAt(w io.Writer, n, round int) {
	b := bufio.NewWriterSize(w, 32<<10)
	defer b.Flush()
	b.WriteString(`{"projects":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(b, `{"project_name":"project-%06d","account_id":"a2f91c3d7e88","account_name":"Acme Corp",`+
			`"default_cloud":"aws-eu-west-1","billing_currency":"EUR","billing_group_id":"5b1f0c2e-91aa-4c2b-8d0e-%012d",`+
			`"estimated_balance":"%d.%02d","available_credits":"0.00","country_code":"FI"}`,
			i, i%50, i%1000+(i%100+round)/100, (i%100+round)%100)
	}
	b.WriteString(`],"project_membership":{`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		role := "admin"
		if i%3 == 0 {
			role = "developer"
		}
		fmt.Fprintf(b, `"project-%06d":%q`, i, role)
	}
	b.WriteString(`}}`)
}
